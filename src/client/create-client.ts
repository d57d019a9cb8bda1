// The client: thin layers around one request function, outermost first:
// family (from the path) → concurrency (p-limit) → retry → budget → quota gate (the usage ledger)
// → rate limit → auth → send → check.
import type { Logger } from 'pino';
import { Pool } from 'undici';
import { ConfigError, DsMirrorError } from '../errors.js';
import { API_FAMILIES, apiFamilyOf, credentialHeaders, type ApiFamily } from './api-family.js';
import { pathWithQuery, type Query } from './build-url.js';
import { checkResponse } from './check-response.js';
import { HttpStatusError, RequestBudgetError, ServiceQuotaError } from './client-errors.js';
import { buildLanes, totalConcurrency, type LimitsOption } from './family-lanes.js';
import { sleep, withRetry, type Backoff } from './retry.js';
import type { RequestGate } from './request-gate.js';
import { sendOnce, type AttemptContext } from './send-once.js';

export interface RequestEvent {
  family: ApiFamily;
  endpoint: string;
  /** null when no response came (time-out, reset). */
  status: number | null;
  ms: number;
  retry: number;
}

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  /** Defaults: v1 600/min, concurrency 8 (charts and open share it); tokenUnlocks and monitoring 200/min, 4. */
  limits?: LimitsOption;
  /** Per attempt; default 30 000. */
  timeoutMs?: number;
  /** Default 5. */
  retries?: number;
  /** Default 500 ms .. 30 s; also caps Retry-After. */
  backoff?: Backoff;
  /** HTTP requests (retries included) over the client's lifetime; beyond it DS_REQUEST_BUDGET, nothing sent. */
  maxRequests?: number;
  /** Asked before every attempt: the quotas of the usage ledger. */
  gate?: RequestGate;
  /** Milliseconds since the epoch, for a Retry-After given as a date and a quota's renewal (default Date.now). */
  clock?: () => number;
  /** Largest response body read, in bytes (default 64 MiB): larger ones fail with DS_RESPONSE_TOO_LARGE. */
  maxResponseBytes?: number;
  logger?: Logger;
  onRequest?: (e: RequestEvent) => void;
}

export interface ClientStats {
  /** HTTP requests sent, retries included. */
  requests: number;
  retries: number;
  /** `get` calls that failed. */
  errors: number;
  byFamily: Record<ApiFamily, number>;
}

export interface ApiClient {
  /** GET a path of the API (segments already encoded); returns the parsed JSON body. */
  get<T = unknown>(path: string, query?: Query): Promise<T>;
  /**
   * Like `get`, but a 2xx body comes back as its bytes, unparsed (statuses and envelopes still checked):
   * a caller that hashes a page first decodes and parses it only when it changed.
   */
  getBytes(path: string, query?: Query): Promise<Buffer>;
  readonly stats: Readonly<ClientStats>;
  close(): Promise<void>;
}

function nonNegativeInt(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) throw new ConfigError(`${name} must be a whole number of at least 0 (got ${value})`);
  return value;
}

function parseBaseUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConfigError(`base URL is not a URL: ${baseUrl}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`base URL must be http or https: ${baseUrl}`);
  return url;
}

export function createClient(opts: ClientOptions): ApiClient {
  const base = parseBaseUrl(opts.baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? 30_000;
  if (!(timeoutMs > 0)) throw new ConfigError(`timeoutMs must be above 0 (got ${timeoutMs})`);
  const backoff = opts.backoff ?? { initialMs: 500, maxMs: 30_000 };
  if (!(backoff.initialMs >= 0 && backoff.maxMs >= backoff.initialMs)) {
    throw new ConfigError(`backoff needs 0 <= initialMs <= maxMs (got ${backoff.initialMs} .. ${backoff.maxMs})`);
  }
  const policy = { retries: nonNegativeInt('retries', opts.retries ?? 5), backoff };
  const maxRequests = opts.maxRequests === undefined ? Infinity : nonNegativeInt('maxRequests', opts.maxRequests);
  const lanes = buildLanes(opts.limits);
  const { apiKey, logger, onRequest, gate } = opts;
  const clock = opts.clock ?? Date.now;
  const redact = apiKey ? (text: string) => text.split(apiKey).join('[redacted]') : (text: string) => text;
  const headersOf = (f: ApiFamily): Record<string, string> => ({
    accept: 'application/json',
    'user-agent': 'ds-mirror',
    ...(apiKey ? credentialHeaders(f, apiKey) : {}),
  });
  const authHeaders = Object.fromEntries(API_FAMILIES.map((f) => [f, headersOf(f)])) as Record<ApiFamily, Record<string, string>>;

  const pool = new Pool(base.origin, { connections: totalConcurrency(lanes), pipelining: 1 });
  const byFamily = Object.fromEntries(API_FAMILIES.map((f) => [f, 0])) as Record<ApiFamily, number>;
  const stats: ClientStats = { requests: 0, retries: 0, errors: 0, byFamily };

  async function attempt<T>(family: ApiFamily, wirePath: string, ctx: AttemptContext, raw: boolean): Promise<T> {
    if (stats.requests >= maxRequests) throw new RequestBudgetError(ctx.endpoint, maxRequests);
    await gate?.admit(family);
    stats.requests++;
    byFamily[family]++;
    if (ctx.attempt > 1) stats.retries++;
    const wait = lanes[family].bucket.reserve();
    if (wait > 0) await sleep(wait);
    const started = performance.now();
    let status: number | null = null;
    try {
      const res = await sendOnce(pool, wirePath, authHeaders[family], timeoutMs, ctx, opts.maxResponseBytes);
      status = res.status;
      return checkResponse<T>(res, ctx, raw, clock());
    } catch (err) {
      if (err instanceof ServiceQuotaError && gate) throw await gate.spent(family, err);
      // A 429's Retry-After holds the whole family (the budget is shared), before anyone else reserves.
      if (err instanceof HttpStatusError && err.status === 429 && err.retryAfterMs !== null) {
        lanes[family].bucket.pause(Math.min(err.retryAfterMs, policy.backoff.maxMs));
      }
      throw err;
    } finally {
      const ms = Math.round(performance.now() - started);
      const retry = ctx.attempt - 1;
      logger?.debug({ family, endpoint: ctx.endpoint, status, ms, retry }, 'http request');
      onRequest?.({ family, endpoint: ctx.endpoint, status, ms, retry });
    }
  }

  async function request<T>(path: string, query: Query | undefined, raw: boolean): Promise<T> {
    try {
      if (!path.startsWith('/')) throw new DsMirrorError('DS_BAD_PATH', `API path must start with '/': ${redact(path)}`);
      const family = apiFamilyOf(path.split('?')[0]);
      const relative = pathWithQuery(path, query);
      const endpoint = redact(`GET ${relative}`);
      return await lanes[family].limit(() =>
        withRetry(
          (n) => attempt<T>(family, prefix + relative, { family, endpoint, attempt: n, redact }, raw),
          policy,
          (err, retry, delayMs) => {
            logger?.warn({ family, endpoint, code: err.code, status: err.status, retry, delayMs, err: err.message }, 'http retry');
          },
        ),
      );
    } catch (err) {
      stats.errors++;
      throw err;
    }
  }

  return {
    get: <T>(path: string, query?: Query) => request<T>(path, query, false),
    getBytes: (path: string, query?: Query) => request<Buffer>(path, query, true),
    stats,
    async close() {
      try {
        await gate?.settle();
      } finally {
        await pool.close();
      }
    },
  };
}
