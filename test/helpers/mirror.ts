// Helpers for sync tests: a fast client for the loopback sandbox, default settings, one-call runs,
// and a dialect-neutral snapshot of a mirrored table to compare runs and the sandbox's own data.
import pino from 'pino';
import { resolveStreams } from '../../src/catalog/index.js';
import { createClient, type ApiClient, type ClientOptions } from '../../src/client/index.js';
import type { Store } from '../../src/store/index.js';
import { keyString } from '../../src/store/index.js';
import type { SyncSettings } from '../../src/sync/context.js';
import { runSync, type RunResult } from '../../src/sync/engine.js';
import { monitoringParams } from '../../src/catalog/query-params.js';

export const silent = pino({ level: 'silent' });

export function fastClient(sandbox: { url: string; apiKey: string }, extra: Partial<ClientOptions> = {}): ApiClient {
  const fast = { requestsPerMinute: 10_000_000, concurrency: 16 };
  return createClient({
    baseUrl: sandbox.url,
    apiKey: sandbox.apiKey,
    limits: { v1: fast, charts: fast, open: fast, tokenUnlocks: fast, monitoring: fast },
    retries: 10,
    backoff: { initialMs: 2, maxMs: 40 },
    timeoutMs: 120_000, // generous: a slow answer on a busy machine must not become a retry (requests are counted)
    ...extra,
  });
}

/** Every development's detail, as before the backlog existed; the backlog has tests of its own. */
export const ALL_DETAILS = { minimumImportance: 'not-important', maxAgeDays: null, maxPerRun: Number.MAX_SAFE_INTEGER } as const;

/**
 * No development's detail: for tests of what the events list alone gives (view matches, alerts, the crosswalk).
 * A detail is one request each (3,300 at scale 0.3), most of such a sync's cost.
 */
export const NO_DETAILS = { minimumImportance: 'high', maxAgeDays: 0, maxPerRun: 0 } as const;

export function settings(overrides: Partial<SyncSettings> = {}): SyncSettings {
  return {
    mode: 'incremental',
    pageWindow: 4,
    lookbackDays: {},
    selection: {},
    fanout: { metricProjects: [] },
    fanoutConcurrency: 8,
    monitoring: { views: [], events: {}, tokenUnlocks: {}, fullPassEveryHours: 24, params: monitoringParams(), details: ALL_DETAILS },
    ...overrides,
  };
}

export async function syncOnce(
  store: Store,
  sandbox: { url: string; apiKey: string },
  streams: readonly string[],
  opts: { settings?: Partial<SyncSettings>; maxRequests?: number; signal?: AbortSignal } = {},
): Promise<RunResult & { requests: number; retries: number }> {
  const client = fastClient(sandbox, { maxRequests: opts.maxRequests });
  try {
    const result = await runSync({
      client,
      store,
      logger: silent,
      settings: settings(opts.settings),
      streams: resolveStreams(streams),
      signal: opts.signal,
    });
    return { ...result, requests: client.stats.requests, retries: client.stats.retries };
  } finally {
    await client.close();
  }
}

/** Live rows of a table by key → the record as received (parsed `raw`). */
export async function liveRecords(store: Store, table: string, key: readonly string[]): Promise<Map<string, unknown>> {
  const rows = (await store.db.selectFrom(table).selectAll().where('deleted_at', 'is', null).execute()) as Record<string, unknown>[];
  return new Map(rows.map((r) => [keyString(key.map((k) => r[k])), JSON.parse(String(r.raw))]));
}

/** Every row of a table, dialect-neutral (JSON parsed, booleans as 0/1), without sync timestamps, sorted. */
export async function tableSnapshot(store: Store, table: string): Promise<Record<string, unknown>[]> {
  const rows = (await store.db.selectFrom(table).selectAll().execute()) as Record<string, unknown>[];
  const clean = rows.map((r) => {
    const { first_seen_at, synced_at, ...rest } = r;
    return Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, typeof v === 'boolean' ? Number(v) : v]));
  });
  const keyed = clean.map((row) => [JSON.stringify(row), row] as const);
  return keyed.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

export function totals(result: RunResult): { inserted: number; updated: number; deleted: number; unchanged: number; fetched: number } {
  const sum = { inserted: 0, updated: 0, deleted: 0, unchanged: 0, fetched: 0 };
  for (const s of result.streams) {
    sum.inserted += s.inserted;
    sum.updated += s.updated;
    sum.deleted += s.deleted;
    sum.unchanged += s.unchanged;
    sum.fetched += s.fetched;
  }
  return sum;
}

/** The store, counting the transactions asked of it. */
export function countingTransactions(store: Store): { store: Store; transactions: () => number } {
  let n = 0;
  const wrapped = Object.create(store) as Store;
  wrapped.transaction = (fn, opts) => {
    n++;
    return store.transaction(fn, opts);
  };
  return { store: wrapped, transactions: () => n };
}
