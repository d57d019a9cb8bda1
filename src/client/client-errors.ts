// Typed errors of the HTTP client. Each says what failed (endpoint = method + path + query, never
// headers), the status and a short excerpt of the body. None carries an undici error as `cause`:
// those can hold request options, so only their code and message are copied, with the key redacted.
import { DsMirrorError, type ErrorKind } from '../errors.js';
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

export abstract class ClientError extends DsMirrorError implements RequestFailure {
  readonly family: ApiFamily;
  readonly endpoint: string;
  readonly status: number | null;
  readonly bodyExcerpt: string | null;
  readonly serverMessage: string | null;
  readonly attempts: number;

  constructor(code: string, kind: ErrorKind, what: string, f: RequestFailure, hint?: string) {
    const tries = f.attempts > 1 ? ` after ${f.attempts} attempts` : '';
    const server = f.serverMessage ? `: ${f.serverMessage}` : f.bodyExcerpt ? `: ${f.bodyExcerpt}` : '';
    super(code, `${f.endpoint} ${what}${tries}${server}${hint ? `. ${hint}` : ''}`, kind);
    this.family = f.family;
    this.endpoint = f.endpoint;
    this.status = f.status;
    this.bodyExcerpt = f.bodyExcerpt;
    this.serverMessage = f.serverMessage;
    this.attempts = f.attempts;
  }
}

/** An HTTP status the client does not accept (400, 5xx after the retries, ...). */
export class HttpStatusError extends ClientError {
  /** The server's Retry-After in ms (429, 503), null when it sent none. */
  readonly retryAfterMs: number | null;

  constructor(f: RequestFailure, retryAfterMs: number | null = null) {
    const kind: ErrorKind = f.status !== null && (f.status >= 500 || f.status === 429) ? 'retriable' : 'fatal';
    super('DS_HTTP_STATUS', kind, `failed with HTTP ${f.status}`, f);
    this.retryAfterMs = retryAfterMs;
  }
}

/** 401/403, or a service that answers `invalid auth mechanism`. */
export class AuthError extends ClientError {
  constructor(f: RequestFailure) {
    super('DS_AUTH', 'fatal', `was refused (HTTP ${f.status})`, f,
      'Check DS_API_KEY and its header: x-api-key on /v1 and charts, X-Service-API-Key on token unlocks and monitoring');
  }
}

/** 404: the item is gone; a fan-out skips it. */
export class NotFoundError extends ClientError {
  constructor(f: RequestFailure) {
    super('DS_NOT_FOUND', 'skippable', 'was not found (HTTP 404)', f);
  }
}

/** A 2xx monitoring or token-unlock response whose envelope carries a non-null `error`. */
export class ApiEnvelopeError extends ClientError {
  constructor(f: RequestFailure) {
    super('DS_API_ERROR', 'fatal', `returned an error (HTTP ${f.status})`, f);
  }
}

export class RequestTimeoutError extends ClientError {
  constructor(f: RequestFailure, timeoutMs: number) {
    super('DS_TIMEOUT', 'retriable', `timed out (${timeoutMs} ms per attempt)`, f);
  }
}

/** Reset, refused or closed connections; `detail` is the transport's code and message. */
export class NetworkError extends ClientError {
  constructor(f: RequestFailure, detail: string, kind: ErrorKind = 'retriable') {
    super('DS_NETWORK', kind, `failed on the network (${detail})`, f);
  }
}

/** A 2xx body that is not the JSON it should be (truncated, HTML from a proxy, ...). */
export class BadResponseError extends ClientError {
  constructor(f: RequestFailure, detail: string) {
    super('DS_BAD_RESPONSE', 'retriable', `returned a body that is not valid JSON (${detail})`, f);
  }
}

/**
 * A 429 that says the allowance itself is spent (X-RateLimit-Remaining: 0, a Retry-After longer than
 * any backoff, or words like "quota"): trying again before `until` only spends goodwill, so it is not
 * retried; the family stops until then.
 */
export class ServiceQuotaError extends ClientError {
  readonly until: Date;

  constructor(f: RequestFailure, until: Date) {
    super('DS_QUOTA', 'fatal', `was refused: the service's allowance is spent until ${until.toISOString()}`, f);
    this.until = until;
  }
}

/** A body larger than `maxResponseBytes`: stopped while streaming, so memory held stays near the limit. */
export class ResponseTooLargeError extends ClientError {
  constructor(f: RequestFailure, maxBytes: number) {
    super('DS_RESPONSE_TOO_LARGE', 'fatal', `sent a body larger than ${maxBytes} bytes, stopped reading it`, f,
      'Raise maxResponseBytes in the config file if the service really serves such bodies');
  }
}

/** The client's `maxRequests` budget is spent; no request was made. The engine stops at a checkpoint. */
export class RequestBudgetError extends DsMirrorError {
  readonly endpoint: string;
  readonly maxRequests: number;

  constructor(endpoint: string, maxRequests: number) {
    super('DS_REQUEST_BUDGET', `${endpoint} not sent: the budget of ${maxRequests} requests (--max-requests) is spent`, 'fatal');
    this.endpoint = endpoint;
    this.maxRequests = maxRequests;
  }
}
