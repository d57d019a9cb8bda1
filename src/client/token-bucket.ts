// A token bucket in its scheduling form (GCRA): each caller is given the time its request may start,
// so waiters leave in arrival order without a queue or a timer per token. `burst` requests may start
// at once; after that one every 60 000 / requestsPerMinute ms.

export class TokenBucket {
  private readonly intervalMs: number;
  private readonly burstSpanMs: number;
  /** When the next request would be due if the bucket were always busy (the "theoretical arrival time"). */
  private tat = -Infinity;
  private pausedUntil = -Infinity;

  constructor(
    requestsPerMinute: number,
    burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.intervalMs = 60_000 / requestsPerMinute;
    this.burstSpanMs = (burst - 1) * this.intervalMs;
  }

  /** Takes one token; returns how many ms the caller must wait before sending (0 = now). */
  reserve(): number {
    const now = this.now();
    const at = Math.max(now, this.pausedUntil, this.tat - this.burstSpanMs);
    this.tat = Math.max(this.tat, at) + this.intervalMs;
    return at - now;
  }

  /** Holds every request for `ms` (a 429's Retry-After applies to the family, not one request). */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
  }
}
