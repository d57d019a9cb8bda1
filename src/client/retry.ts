// Retry as a thin layer: an attempt function is tried again while errorAction says its error is worth
// retrying, waiting an exponential backoff with full jitter, or the server's Retry-After.
import { setTimeout as delay } from 'node:timers/promises';
import { errorAction, type DsMirrorError } from '../errors.js';
import { TransientStatusError } from './client-errors.js';

export interface Backoff {
  initialMs: number;
  maxMs: number;
}

export interface RetryPolicy {
  /** Retries after the first attempt (5 → at most 6 attempts). */
  retries: number;
  backoff: Backoff;
  random?: () => number;
}

/** Full jitter (AWS architecture blog): uniform in [0, min(max, initial * 2^(retry-1))]. */
export function backoffDelay(retry: number, backoff: Backoff, random: () => number = Math.random): number {
  const ceiling = Math.min(backoff.maxMs, backoff.initialMs * 2 ** (retry - 1));
  return Math.round(random() * ceiling);
}

/**
 * Retry-After as delta-seconds or an HTTP date (a day and month name, as RFC 9110 writes them); null
 * when absent or unreadable, a negative number included, so the normal backoff applies.
 */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number = Date.now()): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined) return null;
  const text = v.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  if (!/[A-Za-z]{3}/.test(text)) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/** The longest a 429 is waited out before retrying: the minute window of a service that counts per minute. */
export const LONGEST_429_WAIT_MS = 5 * 60_000;

/**
 * The wait before retry number `retry`: the server's Retry-After if it sent one (a 429's up to the
 * renewal of its minute window, any other status's up to maxMs), else a backoff.
 */
export function retryDelay(err: DsMirrorError, retry: number, policy: RetryPolicy): number {
  if (err instanceof TransientStatusError && err.retryAfterMs !== null) return serverWait(err, policy);
  return backoffDelay(retry, policy.backoff, policy.random);
}

/** How long to honour a status's Retry-After (or a 429's renewal): a 429 is waited out, others capped at maxMs. */
export function serverWait(err: TransientStatusError, policy: RetryPolicy): number {
  const ms = err.retryAfterMs ?? 0;
  return Math.min(ms, err.status === 429 ? LONGEST_429_WAIT_MS : policy.backoff.maxMs);
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Sleeps `ms`, or less: an abort of `signal` ends the wait at once. */
const wait = (ms: number, signal: AbortSignal | undefined): Promise<void> => delay(ms, undefined, { signal }).catch(() => {});

/**
 * Runs `attempt(1)`, then `attempt(2)`, ... while it throws an error to retry and retries remain.
 * `onRetry` runs before each wait (logging, pausing the family's rate limit on a 429). An abort of `signal`
 * cuts the wait short: the next attempt then sees it.
 */
export async function withRetry<T>(
  attempt: (n: number) => Promise<T>,
  policy: RetryPolicy,
  onRetry: (err: DsMirrorError, retry: number, delayMs: number) => void,
  signal?: AbortSignal,
): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (err) {
      if (errorAction(err) !== 'retry' || n > policy.retries) throw err;
      const delayMs = retryDelay(err as DsMirrorError, n, policy);
      onRetry(err as DsMirrorError, n, delayMs);
      await wait(delayMs, signal);
    }
  }
}
