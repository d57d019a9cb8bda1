// Typed errors of the HTTP client. Each says what failed (endpoint = method + path + query, never
// headers), the status and a short excerpt of the body. None carries an undici error as `cause`:
// those can hold request options, so only their code and message are copied, with the key redacted.
// What an error means (retry, skip, stop, fail) is its base class from errors.ts, never its code.
import { DsMirrorError, RetriableError, SkipError, StopError } from '../errors.js';
import type { ApiFamily } from './api-family.js';

export const BODY_EXCERPT_MAX = 300;

export interface RequestFailure {
  family: ApiFamily;
  endpoint: string;
  status: number | null;
  /** At most 300 characters of the response body, key redacted. */
  bodyExcerpt: string | null;
  /** The `error` string of a monitoring or token-unlock envelope, or a `/v1` body's `message`. */
  serverMessage: string | null;
  attempts: number;
}

// A mixin's base must take `...args: any[]` (TypeScript's rule); every subclass below passes (code, message).
// biome-ignore lint/suspicious/noExplicitAny: the mixin constructor signature TypeScript requires
type ErrorBase = abstract new (...args: any[]) => DsMirrorError;

/** The facts of a failed request, on top of one of the classes that say what the failure means. */
function failedRequest<B extends ErrorBase>(Base: B) {
  abstract class Failed extends Base implements RequestFailure {
    declare readonly family: ApiFamily;
    declare readonly endpoint: string;
    declare readonly status: number | null;
    declare readonly bodyExcerpt: string | null;
    declare readonly serverMessage: string | null;
    declare readonly attempts: number;
  }
  return Failed;
}

/** Sets the facts of `f` on a new error (the mixin's fields are declared, so no constructor order applies). */
function record(error: RequestFailure, f: RequestFailure): void {
  const { family, endpoint, status, bodyExcerpt, serverMessage, attempts } = f;
  Object.assign(error, { family, endpoint, status, bodyExcerpt, serverMessage, attempts });
}

const FailedRequest = failedRequest(DsMirrorError);
const RetriableRequest = failedRequest(RetriableError);
const SkippedRequest = failedRequest(SkipError);
const StoppedRequest = failedRequest(StopError);

/** Any error of a request the client made or tried to make. */
export type ClientError = InstanceType<typeof FailedRequest | typeof RetriableRequest | typeof SkippedRequest | typeof StoppedRequest>;

export function isClientError(error: unknown): error is ClientError {
  return (
    error instanceof FailedRequest ||
    error instanceof RetriableRequest ||
    error instanceof SkippedRequest ||
    error instanceof StoppedRequest
  );
}

/** `GET /v1/x failed with HTTP 400 after 3 attempts: <server's words or body excerpt>. <hint>` */
function requestMessage(what: string, f: RequestFailure, hint?: string): string {
  const tries = f.attempts > 1 ? ` after ${f.attempts} attempts` : '';
  const server = f.serverMessage ? `: ${f.serverMessage}` : f.bodyExcerpt ? `: ${f.bodyExcerpt}` : '';
  return `${f.endpoint} ${what}${tries}${server}${hint ? `. ${hint}` : ''}`;
}

const retriableStatus = (status: number | null) => status !== null && (status >= 500 || status === 429);

/** An HTTP status that trying again cannot cure (400, 405, ...). */
export class HttpStatusError extends FailedRequest {
  constructor(f: RequestFailure) {
    super('DS_HTTP_STATUS', requestMessage(`failed with HTTP ${f.status}`, f));
    record(this, f);
  }
}

/** A 5xx or a 429 (a burst, not a spent allowance): retried, waiting the server's Retry-After if it sent one. */
export class TransientStatusError extends RetriableRequest {
  /** The server's Retry-After in ms (429, 503), null when it sent none. */
  readonly retryAfterMs: number | null;

  constructor(f: RequestFailure, retryAfterMs: number | null = null) {
    super('DS_HTTP_STATUS', requestMessage(`failed with HTTP ${f.status}`, f));
    record(this, f);
    this.retryAfterMs = retryAfterMs;
  }
}

/** The error of a status the client does not accept: retried (5xx, 429) or not (4xx). */
export function statusError(f: RequestFailure, retryAfterMs: number | null): HttpStatusError | TransientStatusError {
  return retriableStatus(f.status) ? new TransientStatusError(f, retryAfterMs) : new HttpStatusError(f);
}

/** 401/403, or a service that answers `invalid auth mechanism`. */
export class AuthError extends FailedRequest {
  constructor(f: RequestFailure) {
    const hint = 'Check DS_API_KEY and its header: x-api-key on /v1 and charts, X-Service-API-Key on token unlocks and monitoring';
    super('DS_AUTH', requestMessage(`was refused (HTTP ${f.status})`, f, hint));
    record(this, f);
  }
}

/**
 * The first 401/403 of a family, as every stream of that family fails with it: one line that names where the
 * key came from (never the key) and the header it went in. Nothing more of the family is sent (family-stops.ts).
 */
export class KeyRefusedError extends AuthError {
  constructor(first: AuthError, keySource: string | undefined, header: string, familyName: string) {
    super(first);
    const status = first.status === null ? 'refused' : `HTTP ${first.status}`;
    const said = first.serverMessage ? `: ${first.serverMessage}` : '';
    this.message =
      `the service refused the API key${keySource ? ` from ${keySource}` : ''}, sent as ${header} (${status} on ${first.endpoint}${said}); ` +
      `nothing more of ${familyName} is sent: check the key`;
  }
}

/** 404: the item is gone; a fan-out skips it. */
export class NotFoundError extends SkippedRequest {
  constructor(f: RequestFailure) {
    super('DS_NOT_FOUND', requestMessage('was not found (HTTP 404)', f));
    record(this, f);
  }
}

/** A 2xx monitoring or token-unlock response whose envelope carries a non-null `error`. */
export class ApiEnvelopeError extends FailedRequest {
  constructor(f: RequestFailure) {
    super('DS_API_ERROR', requestMessage(`returned an error (HTTP ${f.status})`, f));
    record(this, f);
  }
}

export class RequestTimeoutError extends RetriableRequest {
  constructor(f: RequestFailure, timeoutMs: number) {
    super('DS_TIMEOUT', requestMessage(`timed out (${timeoutMs} ms per attempt)`, f));
    record(this, f);
  }
}

/** Reset, refused or closed connections; `detail` is the transport's code and message. */
export class NetworkError extends RetriableRequest {
  constructor(f: RequestFailure, detail: string) {
    super('DS_NETWORK', requestMessage(`failed on the network (${detail})`, f));
    record(this, f);
  }
}

const TLS_HINTS: [RegExp, string][] = [
  [
    /WRONG_VERSION_NUMBER|EPROTO|PACKET_LENGTH_TOO_LONG/,
    'the server does not speak TLS there: is the base URL http:// rather than https://?',
  ],
  [/CERT|SELF_SIGNED|UNABLE_TO_/, 'its certificate is not trusted (expired, self-signed, or for another host)'],
];

/** A TLS handshake that failed for a reason no retry cures: one plain line, no OpenSSL internals. */
export class TlsError extends FailedRequest {
  constructor(f: RequestFailure, code: string) {
    const hint = TLS_HINTS.find(([re]) => re.test(code))?.[1] ?? 'the TLS versions or ciphers do not match';
    super('DS_TLS', requestMessage(`failed its TLS handshake (${code}): ${hint}`, f));
    record(this, f);
  }
}

/** A request this client cannot send at all (closed, an argument undici refuses): trying again cannot help. */
export class UnsendableRequestError extends FailedRequest {
  constructor(f: RequestFailure, detail: string) {
    super('DS_NETWORK', requestMessage(`could not be sent (${detail})`, f));
    record(this, f);
  }
}

/**
 * A 2xx body that is not what it should be: not JSON (cut short, a proxy's HTML page) or without the
 * shape the caller checks for. Checked inside the attempt, so it is retried like a 5xx.
 */
export class BadResponseError extends RetriableRequest {
  constructor(f: RequestFailure, problem: string) {
    super('DS_BAD_RESPONSE', requestMessage(`returned ${problem}`, f));
    record(this, f);
  }
}

/**
 * A 429 that says the allowance itself is spent (X-RateLimit-Remaining: 0, a Retry-After longer than
 * any backoff, or words like "quota"): trying again before `until` only spends goodwill, so it is not
 * retried; the family stops until then.
 */
export class ServiceQuotaError extends StoppedRequest {
  readonly until: Date;
  /** What the service said when its renewal was beyond a month or not a time (the hold is a month). */
  readonly clamped: string | null;

  constructor(f: RequestFailure, until: Date, clamped: string | null = null) {
    const note = clamped ? ` (the service said ${clamped}: held for a month at most)` : '';
    super('DS_QUOTA', requestMessage(`was refused: the service's allowance is spent until ${until.toISOString()}${note}`, f));
    record(this, f);
    this.until = until;
    this.clamped = clamped;
  }
}

/** A body larger than `maxResponseBytes`: stopped while streaming, so memory held stays near the limit. */
export class ResponseTooLargeError extends FailedRequest {
  constructor(f: RequestFailure, maxBytes: number) {
    const hint = 'Raise maxResponseBytes in the config file if the service really serves such bodies';
    super('DS_RESPONSE_TOO_LARGE', requestMessage(`sent a body larger than ${maxBytes} bytes, stopped reading it`, f, hint));
    record(this, f);
  }
}

/** The client's `maxRequests` budget is spent; no request was made. The engine stops at a checkpoint. */
/** A call its caller abandoned (a page read ahead past the list's end): no further attempt was made. */
export class AbandonedCallError extends StopError {
  constructor(endpoint: string) {
    super('DS_ABANDONED', `${endpoint} abandoned by its caller: no further attempt made`);
  }
}

export class RequestBudgetError extends StopError {
  readonly endpoint: string;
  readonly maxRequests: number;

  constructor(endpoint: string, maxRequests: number) {
    super('DS_REQUEST_BUDGET', `${endpoint} not sent: the budget of ${maxRequests} requests (--max-requests) is spent`);
    this.endpoint = endpoint;
    this.maxRequests = maxRequests;
  }
}
