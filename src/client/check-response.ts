// Response checking: a status becomes a typed error, a 2xx body is parsed whole (or kept as bytes) and
// checked as the caller asks, and the monitoring / token-unlock envelope `{error, data}` is an error
// whenever `error` is not null.
import { noteBrokenText } from '../broken-text.js';
import type { ApiFamily } from './api-family.js';
import {
  ApiEnvelopeError,
  AuthError,
  BadResponseError,
  BODY_EXCERPT_MAX,
  NotFoundError,
  ServiceQuotaError,
  statusError,
} from './client-errors.js';
import type { BodyCheck } from './body-checks.js';
import { parseRetryAfter } from './retry.js';
import { failure, type AttemptContext, type RawResponse } from './send-once.js';

const ENVELOPE_FAMILIES: ReadonlySet<ApiFamily> = new Set(['monitoring', 'tokenUnlocks']);
const AUTH_MESSAGE = /invalid auth mechanism/i;

/** One line (an HTML page's newlines would break run records and the summary), at most BODY_EXCERPT_MAX characters. */
function excerpt(body: string): string {
  const text = body.replace(/\s+/g, ' ').trim();
  return text.length > BODY_EXCERPT_MAX ? `${text.slice(0, BODY_EXCERPT_MAX - 1)}…` : text;
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
 * A renewal at most this far away is the service's minute window turning over: it is waited out and the
 * run goes on. A renewal further away is an allowance spent for longer: the family stops until then.
 */
export const SHORT_RENEWAL_MS = 5 * 60_000;
/** No quota period is longer than a calendar month: a renewal further away is a header to distrust. */
export const LONGEST_RENEWAL_MS = 31 * 24 * 60 * 60_000;
// Not "rate limit": that is the per-minute kind, which backing off does cure.
const QUOTA_WORDS = /quota|allowance/i;
const UNKNOWN_RENEWAL_MS = 60 * 60_000;

function header(res: RawResponse, name: string): string | undefined {
  const v = res.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export interface AnnouncedRenewal {
  until: Date;
  /** Set when the service's figure was beyond a month or not a time: what it said, for the log. */
  clamped: string | null;
}

/**
 * When a 429 announces a spent allowance (not a burst to back off from), the time it renews: from
 * X-RateLimit-Reset (Unix seconds, or seconds from now when small), else Retry-After, else an hour;
 * never later than a month from now, whatever the headers say.
 */
export function announcedQuotaEnd(
  res: RawResponse,
  retryAfterMs: number | null,
  message: string | null,
  now: number,
): AnnouncedRenewal | null {
  const remaining = header(res, 'x-ratelimit-remaining');
  const spent =
    (remaining !== undefined && Number(remaining.trim()) === 0) ||
    (retryAfterMs !== null && retryAfterMs > SHORT_RENEWAL_MS) ||
    (message !== null && QUOTA_WORDS.test(message));
  if (!spent) return null;
  const resetText = header(res, 'x-ratelimit-reset')?.trim();
  const reset = Number(resetText ?? NaN);
  const [at, said] =
    Number.isFinite(reset) && reset > 0
      ? [reset > 1e9 ? now + (reset * 1000 - serviceNow(res, now)) : now + reset * 1000, `X-RateLimit-Reset: ${resetText}`]
      : [now + (retryAfterMs ?? UNKNOWN_RENEWAL_MS), `Retry-After: ${header(res, 'retry-after') ?? '(none)'}`];
  if (!(at <= now + LONGEST_RENEWAL_MS)) return { until: new Date(now + LONGEST_RENEWAL_MS), clamped: said.slice(0, 80) };
  return { until: new Date(Math.max(now, at)), clamped: null };
}

/**
 * The service's present, from its Date header (ours when it sends none): a time it gives (a reset, a
 * Retry-After date) is that far from its present, so a clock of ours that runs ahead or behind neither
 * ends a hold at once nor makes it a month.
 */
function serviceNow(res: RawResponse, now: number): number {
  const at = Date.parse(header(res, 'date') ?? '');
  return Number.isNaN(at) ? now : at;
}

/** The body as the caller asked for it: parsed JSON, or its bytes (`raw`), and what to check on it. */
export interface BodyWanted {
  raw: boolean;
  check?: BodyCheck<never>;
}

/**
 * A 2xx body becomes what the caller asked for, checked inside the attempt: a body that is not JSON,
 * or fails the caller's check, is a BadResponseError, which the retry layer tries again.
 */
export function checkResponse<T>(res: RawResponse, ctx: AttemptContext, wanted: BodyWanted, now: number = Date.now()): T {
  if (res.status < 200 || res.status >= 300) throw statusFailure(res, ctx, now);
  // Raw /v1 bodies stay unparsed (the caller may skip a page it has already seen byte for byte);
  // envelope families are parsed even then, since their errors ride on a 200.
  const raw = wanted.raw && !ENVELOPE_FAMILIES.has(ctx.family);
  const body = raw ? res.body : parseBody(res, ctx);
  const out = (wanted.raw ? res.body : body) as T;
  const problem = (wanted.check as BodyCheck<T> | undefined)?.(out);
  if (problem !== undefined) throw badResponse(res, ctx, problem);
  return out;
}

function badResponse(res: RawResponse, ctx: AttemptContext, problem: string): BadResponseError {
  const type = header(res, 'content-type');
  const said = type && !/json/i.test(type) ? ` (content-type ${type})` : '';
  // Only the start is decoded: the excerpt is all the message keeps of a body that may be megabytes.
  const text = res.body.subarray(0, BODY_EXCERPT_MAX * 4).toString('utf8');
  return new BadResponseError(failure(ctx, res.status, excerpt(ctx.redact(text))), ctx.redact(problem) + said);
}

function parseBody(res: RawResponse, ctx: AttemptContext): unknown {
  let body: unknown;
  const text = res.body.toString('utf8');
  try {
    body = JSON.parse(text);
  } catch (err) {
    // Often a body cut short on the way, or a proxy's HTML page; the retry layer tries again.
    throw badResponse(res, ctx, `a body that is not JSON (${(err as Error).message}; ${res.body.length} bytes)`);
  }
  const data = (body as { data?: unknown } | null)?.data;
  noteBrokenText(res.body, text, Array.isArray(data) ? data : [data]);
  if (ENVELOPE_FAMILIES.has(ctx.family)) {
    const error = (body as { error?: unknown } | null)?.error;
    if (error !== null && error !== undefined) {
      const message = ctx.redact(typeof error === 'string' ? error : JSON.stringify(error));
      const f = failure(ctx, res.status, excerpt(ctx.redact(res.body.toString('utf8'))), excerpt(message));
      throw AUTH_MESSAGE.test(message) ? new AuthError(f) : new ApiEnvelopeError(f);
    }
  }
  return body;
}

/** The typed error of a status other than 2xx. */
function statusFailure(res: RawResponse, ctx: AttemptContext, now: number): Error {
  const { status } = res;
  const text = res.body.toString('utf8');
  const said = serverMessageOf(tryParse(text));
  const message = said === null ? null : excerpt(ctx.redact(said));
  const f = failure(ctx, status, excerpt(ctx.redact(text)), message);
  if (status === 401 || status === 403 || (message !== null && AUTH_MESSAGE.test(message))) return new AuthError(f);
  if (status === 404) return new NotFoundError(f);
  const retryAfterMs = parseRetryAfter(res.headers['retry-after'], serviceNow(res, now));
  const renewal = status === 429 ? announcedQuotaEnd(res, retryAfterMs, message, now) : null;
  if (!renewal) return statusError(f, retryAfterMs);
  const waitMs = renewal.until.getTime() - now;
  // The minute window turning over: waited out (a retry after the renewal), not a spent allowance.
  if (waitMs <= SHORT_RENEWAL_MS) return statusError(f, waitMs);
  return new ServiceQuotaError(f, renewal.until, renewal.clamped);
}
