// Response checking: a status becomes a typed error, a 2xx body is parsed whole, and the
// monitoring / token-unlock envelope `{error, data}` is an error whenever `error` is not null.
import type { ApiFamily } from './api-family.js';
import {
  ApiEnvelopeError,
  AuthError,
  BadResponseError,
  BODY_EXCERPT_MAX,
  HttpStatusError,
  NotFoundError,
  ServiceQuotaError,
} from './client-errors.js';
import { parseRetryAfter } from './retry.js';
import { failure, type AttemptContext, type RawResponse } from './send-once.js';

const ENVELOPE_FAMILIES: ReadonlySet<ApiFamily> = new Set(['monitoring', 'tokenUnlocks']);
const AUTH_MESSAGE = /invalid auth mechanism/i;

function excerpt(text: string): string {
  return text.length > BODY_EXCERPT_MAX ? text.slice(0, BODY_EXCERPT_MAX - 1) + '…' : text;
}

/** The server's own words: the envelope's `error`, or a `/v1` body's `message` (a string or a list). */
function serverMessageOf(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const { error, message } = body as { error?: unknown; message?: unknown };
  if (typeof message === 'string') return message;
  if (Array.isArray(message)) return message.map(String).join('; ');
  if (typeof error === 'string') return error;
  return null;
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * With `raw`, a 2xx `/v1` body is returned as its text, unparsed (the caller may skip parsing a page it has
 * already seen byte for byte); envelope families are still parsed, since their errors ride on a 200.
 */
/** A Retry-After longer than this is an allowance that renews later, not a moment's congestion. */
export const QUOTA_RETRY_AFTER_MS = 5 * 60_000;
// Not "rate limit": that is the per-minute kind, which backing off does cure.
const QUOTA_WORDS = /quota|allowance/i;
const UNKNOWN_RENEWAL_MS = 60 * 60_000;

function header(res: RawResponse, name: string): string | undefined {
  const v = res.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * When a 429 announces a spent allowance (not a burst to back off from), the time it renews: from
 * X-RateLimit-Reset (Unix seconds, or seconds from now when small), else Retry-After, else an hour.
 */
export function announcedQuotaEnd(res: RawResponse, retryAfterMs: number | null, message: string | null, now: number): Date | null {
  const remaining = header(res, 'x-ratelimit-remaining');
  const spent = (remaining !== undefined && Number(remaining.trim()) === 0)
    || (retryAfterMs !== null && retryAfterMs > QUOTA_RETRY_AFTER_MS)
    || (message !== null && QUOTA_WORDS.test(message));
  if (!spent) return null;
  const reset = Number(header(res, 'x-ratelimit-reset')?.trim() ?? NaN);
  if (Number.isFinite(reset) && reset > 0) return new Date(reset > 1e9 ? reset * 1000 : now + reset * 1000);
  return new Date(now + (retryAfterMs ?? UNKNOWN_RENEWAL_MS));
}

export function checkResponse<T>(res: RawResponse, ctx: AttemptContext, raw = false, now: number = Date.now()): T {
  const { status } = res;
  if (status >= 200 && status < 300) {
    if (raw && !ENVELOPE_FAMILIES.has(ctx.family)) return res.body as T;
    const text = res.body.toString('utf8');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (err) {
      // Often a body cut short on the way; the retry layer tries again.
      const detail = ctx.redact(`${(err as Error).message}; ${text.length} characters`);
      throw new BadResponseError(failure(ctx, status, excerpt(ctx.redact(text))), detail);
    }
    if (ENVELOPE_FAMILIES.has(ctx.family)) {
      const error = (body as { error?: unknown } | null)?.error;
      if (error !== null && error !== undefined) {
        const message = ctx.redact(typeof error === 'string' ? error : JSON.stringify(error));
        const f = failure(ctx, status, excerpt(ctx.redact(text)), excerpt(message));
        throw AUTH_MESSAGE.test(message) ? new AuthError(f) : new ApiEnvelopeError(f);
      }
    }
    return (raw ? res.body : body) as T;
  }

  const text = res.body.toString('utf8');
  const said = serverMessageOf(tryParse(text));
  const message = said === null ? null : excerpt(ctx.redact(said));
  const f = failure(ctx, status, excerpt(ctx.redact(text)), message);
  if (status === 401 || status === 403 || (message !== null && AUTH_MESSAGE.test(message))) throw new AuthError(f);
  if (status === 404) throw new NotFoundError(f);
  const retryAfterMs = parseRetryAfter(res.headers['retry-after']);
  const until = status === 429 ? announcedQuotaEnd(res, retryAfterMs, message, now) : null;
  if (until) throw new ServiceQuotaError(f, until);
  throw new HttpStatusError(f, retryAfterMs);
}
