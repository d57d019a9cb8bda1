// The clock webhook retries and time-outs run on. In the sandbox it is the sandbox clock: a retry due
// in 2 s goes out once the sandbox clock has moved 2 s, and an attempt times out once it has moved
// 30 s, whatever the machine's load, so a busy machine sends exactly the deliveries an idle one does.

export interface SenderClock {
  /** Milliseconds on this clock. */
  now(): number;
  /** Calls `fn` once the clock has moved `ms` on; returns a function that cancels it. */
  after(ms: number, fn: () => void): () => void;
}

interface Timer {
  due: number;
  seq: number;
  fn: () => void;
}

/** A clock that moves only when told (`advanceTo`), running every timer that falls due. */
export class SteppedClock implements SenderClock {
  private timers: Timer[] = [];
  private seq = 0;

  constructor(private nowMs = 0) {}

  now(): number {
    return this.nowMs;
  }

  after(ms: number, fn: () => void): () => void {
    const timer: Timer = { due: this.nowMs + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /**
   * Jumps to `ms` (never backwards), then runs the timers due by then, earliest first. Timers those
   * callbacks set count from the new time (an attempt a retry starts gets its full time-out).
   */
  advanceTo(ms: number): void {
    this.nowMs = Math.max(this.nowMs, ms);
    const due = this.timers.filter((t) => t.due <= this.nowMs).sort((a, b) => a.due - b.due || a.seq - b.seq);
    this.timers = this.timers.filter((t) => t.due > this.nowMs);
    for (const t of due) t.fn();
  }

  advanceBy(ms: number): void {
    this.advanceTo(this.nowMs + ms);
  }
}
