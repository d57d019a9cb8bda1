// How a quota-limited service answers: a 429 that says the allowance is spent (Retry-After until it
// renews, X-RateLimit-Remaining: 0, a body in the family's error shape), and X-RateLimit-* headers
// of the tightest limit on every response it serves. A chaos 429 has neither Remaining nor a body
// that mentions a quota, so a client can tell a spent allowance from a passing overload.
import type { WindowStatus } from './quota-meter.js';
import type { QuotaFamily } from './quota-spec.js';

const PERIOD_WORD = { minute: 'Per-minute', day: 'Daily', month: 'Monthly' } as const;
const PER = { minute: 'a minute', day: 'a day', month: 'a month' } as const;

export function rateLimitHeaders(s: WindowStatus): Record<string, string> {
  return {
    'x-ratelimit-limit': String(s.limit),
    'x-ratelimit-remaining': String(Math.max(0, s.remaining)),
    'x-ratelimit-reset': String(s.resetsAt),
  };
}

/** The 429 for a request refused because `spent` is used up; `now` in Unix seconds. */
export function quotaRefusal(
  family: QuotaFamily,
  spent: WindowStatus,
  /** Now on the clock the spent window counts on (QuotaMeter.at). */
  now: number,
): {
  body: Record<string, unknown>;
  headers: Record<string, string>;
} {
  const renews = new Date(spent.resetsAt * 1000).toISOString();
  const message = `${PERIOD_WORD[spent.period]} request quota exceeded (${spent.limit} requests ${PER[spent.period]}); it renews at ${renews}`;
  const body = family === 'monitoring' || family === 'tokenUnlocks' ? { error: message, data: null } : { statusCode: 429, message };
  const headers = { 'retry-after': String(Math.max(1, Math.ceil(spent.resetsAt - now))), ...rateLimitHeaders({ ...spent, remaining: 0 }) };
  return { body, headers };
}
