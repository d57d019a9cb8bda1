// The client: thin layers around one request function, outermost first:
// family (from the path) → concurrency (p-limit) → retry → budget → quota gate (the usage ledger)
// → rate limit → auth → send → check.
import type { Logger } from 'pino';
import type { Pool } from 'undici';
import { ConfigError, DsMirrorError } from '../errors.js';
import { API_FAMILIES, apiFamilyOf, credentialHeaders, type ApiFamily } from './api-family.js';
import { pathWithQuery, type Query } from './build-url.js';
import type { BodyCheck } from './body-checks.js';
import { checkResponse, type BodyWanted } from './check-response.js';
import {
  AbandonedCallError,
  AuthError,
  RequestBudgetError,
  ServiceQuotaError,
  TransientStatusError,
  type RequestFailure,
} from './client-errors.js';
import { FamilyStops, keyRefused } from './family-stops.js';
import { buildLanes, totalConcurrency, type Lane, type LimitsOption } from './family-lanes.js';
import { serverWait, sleep, withRetry, type Backoff, type RetryPolicy } from './retry.js';
import type { RequestGate } from './request-gate.js';
import { neverReachedService, sendOnce, type AttemptContext } from './send-once.js';

/**
 * The connection pool, made on the first request: undici's index loads fetch, websockets and cookies
 * beside the Pool (about 110 modules, 50-90 ms of a start), and most commands build a client that may
 * never send anything (`status`, `export`, `receive`).
 */
function poolOnDemand(origin: string, connections: number): { get(): Promise<Pool>; close(): Promise<void> } {
  let pool: Promise<Pool> | undefined;
  let closed = false;
  return {
    get: () => {
      // The CommonJS module itself (`default`): what both Node and the CLI's bundle give an import().
      pool ??= import('undici').then(({ default: undici }) => {
        const made = new undici.Pool(origin, { connections, pipelining: 1 });
        if (closed) void made.close(); // closed before its first request: it refuses to send, as a closed pool does
        return made;
      });
      return pool;
    },
    close: async () => {
      closed = true;
      if (pool) await (await pool).close();
    },
  };
}

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
  /** Where the key came from, as the person set it (`DS_API_KEY`, `apiKeyFile /etc/ds/key`): named when it is refused. */
  keySource?: string;
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
  /** The service's clock minus ours, from its last Date header (ms; null before any): where "now" is for it. */
  clockOffsetMs: number | null;
  /**
   * The families stopped for the rest of the client's life (charts under v1), with the error each of their
   * requests fails with: the service refused the key (KeyRefusedError) or said the allowance is spent.
   */
  stopped: ReadonlyMap<ApiFamily, Error>;
}

/** What a caller asks of one call's body. */
export interface CallOptions<B> {
  /**
   * Run on every 2xx body inside the attempt: a problem it names fails the attempt with a BadResponseError,
   * which is retried like a 5xx (a proxy's page, a body of the wrong shape), then fails the call.
   */
  check?: BodyCheck<B>;
  /** The path declares no credential (catalog data): no key is sent, and the request is in the `open` family. */
  keyless?: boolean;
  /**
   * The caller no longer wants the answer once this aborts: no further attempt is made (a wait for a retry
   * ends at once) and the call fails with AbandonedCallError; an attempt already admitted is sent and finishes.
   */
  signal?: AbortSignal;
}

export interface ApiClient {
  /** GET a path of the API (segments already encoded); returns the parsed JSON body. */
  get<T = unknown>(path: string, query?: Query, opts?: CallOptions<unknown>): Promise<T>;
  /**
   * Like `get`, but a 2xx body comes back as its bytes, unparsed (statuses and envelopes still checked):
   * a caller that hashes a page first decodes and parses it only when it changed.
   */
  getBytes(path: string, query?: Query, opts?: CallOptions<Buffer>): Promise<Buffer>;
  readonly stats: Readonly<ClientStats>;
  /** The service this client talks to: its base URL without credentials, query or trailing slash. */
  readonly service: string;
  /**
   * This client, also counting into `counter` every request that reaches the service (retries included;
   * one refused by a budget or that never left is not counted): how a stream learns its requests.
   */
  counting(counter: RequestCounter): ApiClient;
  close(): Promise<void>;
}

/** Where a caller's requests are counted, as the service counts them. */
export interface RequestCounter {
  requests: number;
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

/** The options checked once, with their defaults. */
function settle(opts: ClientOptions) {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  if (!(timeoutMs > 0)) throw new ConfigError(`timeoutMs must be above 0 (got ${timeoutMs})`);
  const backoff = opts.backoff ?? { initialMs: 500, maxMs: 30_000 };
  if (!(backoff.initialMs >= 0 && backoff.maxMs >= backoff.initialMs)) {
    throw new ConfigError(`backoff needs 0 <= initialMs <= maxMs (got ${backoff.initialMs} .. ${backoff.maxMs})`);
  }
  return {
    timeoutMs,
    policy: { retries: nonNegativeInt('retries', opts.retries ?? 5), backoff } as RetryPolicy,
    maxRequests: opts.maxRequests === undefined ? Infinity : nonNegativeInt('maxRequests', opts.maxRequests),
    clock: opts.clock ?? Date.now,
  };
}

/** The key, wherever it might appear in a message, becomes `[redacted]`. */
function redactor(apiKey: string): (text: string) => string {
  return apiKey ? (text) => text.split(apiKey).join('[redacted]') : (text) => text;
}

/** Each family's headers, built once: exactly one credential header, the one its family takes. */
function headersByFamily(apiKey: string): Record<ApiFamily, Record<string, string>> {
  const headersOf = (f: ApiFamily): Record<string, string> => ({
    accept: 'application/json',
    'user-agent': 'ds-mirror',
    ...(apiKey ? credentialHeaders(f, apiKey) : {}),
  });
  return Object.fromEntries(API_FAMILIES.map((f) => [f, headersOf(f)])) as Record<ApiFamily, Record<string, string>>;
}

/** The shared state one attempt works with. */
interface Sender {
  opts: ClientOptions;
  settings: ReturnType<typeof settle>;
  lanes: Record<ApiFamily, Lane>;
  pool: () => Promise<Pool>;
  headers: Record<ApiFamily, Record<string, string>>;
  redact: (text: string) => string;
  stats: ClientStats;
  stops: FamilyStops;
}

/**
 * Counts the request against the budget before the gate's wait (so concurrent attempts cannot all pass
 * it), and takes it back if the gate refuses: nothing was sent.
 */
async function admit(s: Sender, ctx: AttemptContext & Counted): Promise<void> {
  const { stats, settings } = s;
  const { family } = ctx;
  if (stats.requests >= settings.maxRequests) throw new RequestBudgetError(ctx.endpoint, settings.maxRequests);
  count(s, ctx, 1);
  if (!s.opts.gate) return;
  try {
    await s.opts.gate.admit(family);
  } catch (err) {
    count(s, ctx, -1);
    throw err;
  }
}

/** The one place a request is counted (or taken back): the client's, its family's and the caller's counter. */
function count(s: Sender, ctx: AttemptContext & Counted, n: 1 | -1): void {
  s.stats.requests += n;
  s.stats.byFamily[ctx.family] += n;
  if (ctx.counter) ctx.counter.requests += n;
}

/**
 * Waits for the family's pace: this process's, then every worker's where the gate shares one (a shared
 * database). False when the caller abandoned the call during the wait: nothing was sent.
 */
async function pace(s: Sender, family: ApiFamily, signal: AbortSignal | undefined): Promise<boolean> {
  const { pacer } = s.lanes[family];
  if (!(await pacer.take(signal))) return false;
  const shared = await s.opts.gate?.pace?.(family, pacer.intervalMs);
  if (shared && shared > 0) await sleep(shared);
  return true;
}

/** The service's Date header against our clock: the sync keeps a window's mark within the service's present. */
function noteServiceClock(s: Sender, date: string | string[] | undefined): void {
  const at = typeof date === 'string' ? Date.parse(date) : Number.NaN;
  if (!Number.isNaN(at)) s.stats.clockOffsetMs = at - s.settings.clock();
}

/** An attempt that never reached the service (refused, no such host, TLS) was not counted there: not here either. */
function refund(s: Sender, ctx: AttemptContext & Counted): void {
  count(s, ctx, -1);
  s.opts.gate?.refund?.(ctx.family);
}

/** One attempt: budget and gate, the family's pace, the send, then the status and the body checked. */
async function attempt<T>(s: Sender, wirePath: string, ctx: AttemptContext & Counted, wanted: BodyWanted): Promise<T> {
  const { family } = ctx;
  // Checked once, before the attempt is counted: an attempt admitted is sent, so counts stay exact.
  if (ctx.signal?.aborted) throw new AbandonedCallError(ctx.endpoint);
  await s.stops.check(family, s.opts.gate);
  await admit(s, ctx);
  // A stopping run does not wait out a pause (a 429's, up to minutes): the attempt admitted is given back.
  if (!(await pace(s, family, ctx.signal))) {
    refund(s, ctx);
    throw new AbandonedCallError(ctx.endpoint);
  }
  // Admitted before the family was stopped, it may have waited its pace slot since: it is not sent. The
  // answers already received are read first (a timer's turn comes before the sockets' in Node's loop, so a
  // refusal that arrived while the process was busy would otherwise be read only after this request left).
  await new Promise((read) => setImmediate(read));
  await s.stops.check(family, s.opts.gate).catch((err: unknown) => {
    refund(s, ctx);
    throw err;
  });
  if (ctx.attempt > 1) s.stats.retries++;
  // The moment it leaves, as the client knows it: "sent after the refusal" is judged by this order.
  s.opts.logger?.debug({ family, endpoint: ctx.endpoint }, 'http send');
  const started = performance.now();
  let status: number | null = null;
  try {
    const res = await sendOnce(await s.pool(), wirePath, s.headers[family], s.settings.timeoutMs, ctx, s.opts.maxResponseBytes);
    status = res.status;
    noteServiceClock(s, res.headers.date);
    return checkResponse<T>(res, ctx, wanted, s.settings.clock());
  } catch (err) {
    if (neverReachedService(err)) refund(s, ctx);
    if (err instanceof ServiceQuotaError && err.clamped)
      s.opts.logger?.warn({ family, said: err.clamped }, 'quota renewal clamped to a month');
    // The first refusal of the key or announcement of a spent allowance stops the family, before any await.
    if (err instanceof ServiceQuotaError)
      throw await s.stops.stop(family, s.opts.gate ? s.opts.gate.spent(family, err) : Promise.resolve(err));
    if (err instanceof AuthError) throw await s.stops.stop(family, Promise.resolve(keyRefused(err, s.opts.keySource)));
    // A 429's Retry-After holds the whole family (the budget is shared), before anyone else reserves.
    if (err instanceof TransientStatusError && err.status === 429 && err.retryAfterMs !== null) {
      s.lanes[family].pacer.pause(serverWait(err, s.settings.policy));
    }
    throw err;
  } finally {
    const event = { family, endpoint: ctx.endpoint, status, ms: Math.round(performance.now() - started), retry: ctx.attempt - 1 };
    s.opts.logger?.debug(event, 'http request');
    s.opts.onRequest?.(event);
  }
}

/** A call: its family's concurrency slot, then attempts until one succeeds or the error is not worth a retry. */
async function request<T>(
  s: Sender,
  prefix: string,
  path: string,
  query: Query | undefined,
  wanted: BodyWanted & { keyless?: boolean; signal?: AbortSignal },
  counter: RequestCounter | undefined,
): Promise<T> {
  const { redact } = s;
  try {
    if (!path.startsWith('/')) throw new DsMirrorError('DS_BAD_PATH', `API path must start with '/': ${redact(path)}`);
    const family = apiFamilyOf(path.split('?')[0], wanted.keyless);
    const relative = pathWithQuery(path, query);
    const endpoint = redact(`GET ${relative}`);
    const onRetry = (err: DsMirrorError, retry: number, delayMs: number) => {
      const status = (err as Partial<RequestFailure>).status;
      s.opts.logger?.warn({ family, endpoint, code: err.code, status, retry, delayMs, err: err.message }, 'http retry');
    };
    return await s.lanes[family].limit(() =>
      withRetry(
        (n) => attempt<T>(s, prefix + relative, { family, endpoint, attempt: n, redact, counter, signal: wanted.signal }, wanted),
        s.settings.policy,
        onRetry,
        wanted.signal,
      ),
    );
  } catch (err) {
    if (!(err instanceof AbandonedCallError)) s.stats.errors++;
    throw err;
  }
}

export function createClient(opts: ClientOptions): ApiClient {
  const base = parseBaseUrl(opts.baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  const settings = settle(opts);
  const lanes = buildLanes(opts.limits);
  const pool = poolOnDemand(base.origin, totalConcurrency(lanes));
  const byFamily = Object.fromEntries(API_FAMILIES.map((f) => [f, 0])) as Record<ApiFamily, number>;
  const stops = new FamilyStops();
  const stats: ClientStats = { requests: 0, retries: 0, errors: 0, byFamily, clockOffsetMs: null, stopped: stops.all() };
  const s: Sender = {
    opts,
    settings,
    lanes,
    pool: pool.get,
    headers: headersByFamily(opts.apiKey),
    redact: redactor(opts.apiKey),
    stats,
    stops,
  };
  const service = `${base.protocol}//${base.host}${base.pathname.replace(/\/+$/, '')}`;
  const close = async () => {
    try {
      await opts.gate?.settle();
    } finally {
      await pool.close();
    }
  };
  const view = (counter?: RequestCounter): ApiClient => ({
    get: <T>(path: string, query?: Query, o?: CallOptions<unknown>) =>
      request<T>(s, prefix, path, query, { raw: false, check: o?.check, keyless: o?.keyless, signal: o?.signal }, counter),
    getBytes: (path: string, query?: Query, o?: CallOptions<Buffer>) =>
      request<Buffer>(s, prefix, path, query, { raw: true, check: o?.check, keyless: o?.keyless, signal: o?.signal }, counter),
    stats,
    service,
    counting: (c) => view(c),
    close,
  });
  return view();
}

/** What an attempt carries beyond the request's facts: the caller's counter and its signal, if any. */
interface Counted {
  counter?: RequestCounter;
  signal?: AbortSignal;
}
