// The spec's delivery policy: 5 attempts, 1 s initial interval, factor 2, at most 5 min between
// attempts; 30 s transport and 1 min per-attempt time-outs. `timeFactor` scales every duration.
export const MAX_ATTEMPTS = 5;
const INITIAL_INTERVAL_MS = 1_000;
const BACKOFF_COEFFICIENT = 2;
const MAX_INTERVAL_MS = 5 * 60_000;
const TRANSPORT_TIMEOUT_MS = 30_000;
const ATTEMPT_TIMEOUT_MS = 60_000;

export interface RetryTimings {
  transportTimeoutMs: number;
  attemptTimeoutMs: number;
  /** Wait before attempt `n + 1` after attempt `n` (1-based) failed retryably. */
  delayAfter(attempt: number): number;
}

export function retryTimings(timeFactor = 1): RetryTimings {
  if (!(timeFactor > 0)) throw new RangeError(`timeFactor must be positive, got ${timeFactor}`);
  return {
    transportTimeoutMs: TRANSPORT_TIMEOUT_MS * timeFactor,
    attemptTimeoutMs: ATTEMPT_TIMEOUT_MS * timeFactor,
    delayAfter: (attempt) => Math.min(INITIAL_INTERVAL_MS * BACKOFF_COEFFICIENT ** (attempt - 1), MAX_INTERVAL_MS) * timeFactor,
  };
}

export type Outcome = 'delivered' | 'retry' | 'permanent';

/** A status, or undefined for a network error or time-out (retryable). */
export function classify(status: number | undefined): Outcome {
  if (status === undefined) return 'retry';
  if (status >= 200 && status < 300) return 'delivered';
  if (status === 429 || status >= 500) return 'retry';
  return 'permanent'; // other 4xx (and anything unexpected, e.g. 3xx) is not retried
}
