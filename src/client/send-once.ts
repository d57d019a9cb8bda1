// One HTTP attempt over the pool: headers, a time-out on the whole attempt (headers and body),
// the body read whole up to a size limit (checked as it streams in, so a huge body never sits in
// memory). Transport failures become DS_TIMEOUT or DS_NETWORK errors.
import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders } from 'node:http';
import type { Pool } from 'undici';
import type { ApiFamily } from './api-family.js';
import {
  NetworkError,
  RequestTimeoutError,
  ResponseTooLargeError,
  TlsError,
  UnsendableRequestError,
  type RequestFailure,
} from './client-errors.js';

/** What one attempt is about; every string that ends in an error passes through `redact`. */
export interface AttemptContext {
  family: ApiFamily;
  endpoint: string;
  attempt: number;
  redact: (text: string) => string;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body's bytes: hashed before (and instead of) decoding where a caller can skip unchanged pages. */
  body: Buffer;
}

/** The default `maxResponseBytes`: the largest page the service serves (10,000 projects) is about 6 MB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);
/** Our own mistakes or a closed client: trying again cannot help. */
const UNSENDABLE_CODES = new Set(['UND_ERR_INVALID_ARG', 'UND_ERR_CLOSED', 'UND_ERR_DESTROYED', 'UND_ERR_NOT_SUPPORTED']);
/** No connection was made, so the service saw (and counted) nothing: the request is not charged. */
const NOT_REACHED_CODES = new Set([
  // The client was closed (closing, or closed: "destroyed"; it is never destroyed mid-request): refused before any byte left.
  'UND_ERR_CLOSED',
  'UND_ERR_DESTROYED',
  'UND_ERR_INVALID_ARG',
  'UND_ERR_NOT_SUPPORTED',
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);
/** A TLS handshake that cannot succeed however often it is tried: a plain-HTTP server, a certificate refused. */
const TLS_CODE = /^(ERR_SSL_|ERR_TLS_|EPROTO$|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|UNABLE_TO_(VERIFY|GET)_)/;

export function failure(
  ctx: AttemptContext,
  status: number | null,
  bodyExcerpt: string | null = null,
  serverMessage: string | null = null,
): RequestFailure {
  return { family: ctx.family, endpoint: ctx.endpoint, status, bodyExcerpt, serverMessage, attempts: ctx.attempt };
}

function transportError(err: unknown, timedOut: boolean, ctx: AttemptContext, timeoutMs: number): Error {
  const code = transportCode(err);
  if (code !== null && TLS_CODE.test(code)) return notReached(new TlsError(failure(ctx, null), code));
  const error = classify(err, code, timedOut, ctx, timeoutMs);
  return code !== null && NOT_REACHED_CODES.has(code) ? notReached(error) : error;
}

/** The transport's code, also when undici wraps the socket's error in its own (`cause`). */
function transportCode(err: unknown): string | null {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null;
  const own = typeof e?.code === 'string' ? e.code : null;
  const cause = typeof e?.cause?.code === 'string' ? e.cause.code : null;
  return cause && (!own || own.startsWith('UND_ERR_SOCKET')) ? cause : own;
}

function classify(err: unknown, code: string | null, timedOut: boolean, ctx: AttemptContext, timeoutMs: number): Error {
  if (timedOut || (code !== null && TIMEOUT_CODES.has(code))) return new RequestTimeoutError(failure(ctx, null), timeoutMs);
  const name = code ?? (err instanceof Error ? err.name : 'Error');
  const detail = `${name}: ${ctx.redact(err instanceof Error ? err.message : String(err))}`;
  if (code !== null && UNSENDABLE_CODES.has(code)) return new UnsendableRequestError(failure(ctx, null), detail);
  return new NetworkError(failure(ctx, null), detail);
}

const NOT_REACHED = new WeakSet<Error>();

function notReached(err: Error): Error {
  NOT_REACHED.add(err);
  return err;
}

/** Whether an attempt failed before any byte reached the service (refused, no such host, TLS): it costs nothing. */
export function neverReachedService(err: unknown): boolean {
  return err instanceof Error && NOT_REACHED.has(err);
}

export async function sendOnce(
  pool: Pool,
  path: string,
  headers: Record<string, string>,
  timeoutMs: number,
  ctx: AttemptContext,
  maxBytes = DEFAULT_MAX_RESPONSE_BYTES,
): Promise<RawResponse> {
  // headersTimeout/bodyTimeout bound each silence; the abort bounds the whole attempt (a slow drip).
  // undici takes an EventEmitter as its signal: it costs less per request than an AbortController.
  const abort = new EventEmitter();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.emit('abort');
  }, timeoutMs);
  try {
    const res = await pool.request({
      method: 'GET',
      path,
      headers,
      signal: abort,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const body = await readBounded(res.body, Number(res.headers['content-length'] ?? 0), maxBytes, () => failure(ctx, res.statusCode));
    return { status: res.statusCode, headers: res.headers, body };
  } catch (err) {
    if (err instanceof ResponseTooLargeError) throw err;
    throw transportError(err, timedOut, ctx, timeoutMs);
  } finally {
    clearTimeout(timer);
  }
}

/** The body's bytes, or ResponseTooLargeError as soon as the announced or received size passes `maxBytes`. */
async function readBounded(
  body: AsyncIterable<Buffer> & { destroy(err?: Error): unknown },
  announced: number,
  maxBytes: number,
  failed: () => RequestFailure,
): Promise<Buffer> {
  const tooLarge = () => {
    const err = new ResponseTooLargeError(failed(), maxBytes);
    body.destroy(err); // closes the connection: the rest is never read
    return err;
  };
  if (announced > maxBytes) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) {
      chunks.length = 0;
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}
