// The pace of one API family, as a service that counts requests per minute sees it. A service's gateway
// counts per calendar minute or over a sliding 60 s; either way "N a minute" means no 60 s holds more
// than N. So requests are spaced evenly, never in a burst: the next may start one interval after the
// previous one actually started (a late timer or a slow slot never lets two leave closer together).
// The interval is the window plus a margin for the network's jitter, divided by N: requests that leave
// 303 ms apart cannot arrive 200 in one minute of the service's clock.

import { setTimeout as delay } from 'node:timers/promises';

/** Spare time per window for the arrival jitter between this process and the service's counter. */
export const WINDOW_MARGIN_MS = 1_000;
const WINDOW_MS = 60_000;

export class MinutePacer {
  readonly intervalMs: number;
  private nextAt = -Infinity;
  private pausedUntil = -Infinity;

  constructor(
    requestsPerMinute: number,
    private readonly now: () => number = () => performance.now(),
    private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void> = (ms, signal) =>
      delay(ms, undefined, { signal }).catch(() => {}),
  ) {
    this.intervalMs = (WINDOW_MS + WINDOW_MARGIN_MS) / requestsPerMinute;
  }

  /** How long a request arriving now would wait (0: it may start now); takes nothing. */
  due(): number {
    return Math.max(0, Math.max(this.nextAt, this.pausedUntil) - this.now());
  }

  /**
   * Resolves true when the caller may send, and takes that moment: the next caller waits an interval from
   * it. An abort of `signal` ends the wait (a 429's pause may last minutes) with false, nothing taken.
   */
  async take(signal?: AbortSignal): Promise<boolean> {
    for (let wait = this.due(); wait > 0; wait = this.due()) {
      if (signal?.aborted) return false;
      await (signal ? untilAbort(this.sleep(wait, signal), signal) : this.sleep(wait));
    }
    if (signal?.aborted) return false;
    this.nextAt = this.now() + this.intervalMs;
    return true;
  }

  /** Holds every request for `ms` (a 429's Retry-After applies to the family, not one request). */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
  }
}

/**
 * `sleeping`, or less: an abort of `signal` ends the wait even where the sleep ignores it (an injected
 * one). Its listener is removed when the wait ends either way: one caller pacing many requests under one
 * signal (a stream's) would otherwise leave one listener per wait on it, a leak Node warns about at 11.
 */
async function untilAbort(sleeping: Promise<void>, signal: AbortSignal): Promise<void> {
  let onAbort = (): void => {};
  const aborted = new Promise<void>((resolve) => {
    onAbort = resolve;
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([sleeping, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
