// Helpers for the monitoring tests: what the sandbox serves (the oracle, read in-process), what the
// mirror holds (dialect-neutral), and a client wrapper that fails chosen development fetches.
import type { ApiClient } from '../../src/client/index.js';
import { RetriableError } from '../../src/errors.js';
import type { Store } from '../../src/store/index.js';
import type { Sandbox } from '../../sandbox/index.js';

export const MONITORING_STREAMS = ['token-unlocks', 'monitoring-categories', 'monitoring-events', 'monitoring-views'];

/** Every event id matching a view, read from the sandbox's own handler (not over the mirror's client). */
export function sandboxViewMatches(sb: Sandbox, viewId: string): string[] {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const res = sb.monitoring.handle({
      path: `/monitoring/v2/monitoring-views/${viewId}/events`,
      query: new URLSearchParams({ limit: '100', page: String(page) }),
      headers: { 'x-service-api-key': sb.apiKey },
    }) as { status: number; body: { data: { id: string }[] } };
    if (res.status !== 200) throw new Error(`sandbox answered ${res.status} for view ${viewId}`);
    ids.push(...res.body.data.map((e) => e.id));
    if (res.body.data.length < 100) return ids;
  }
}

/** `event|development` of every alert the sandbox's own rule gives the view now, sorted. */
export function sandboxViewAlerts(sb: Sandbox, viewId: string): string[] {
  return sb.monitoring
    .alertsOf(viewId)
    .map((a) => `${a.eventId}|${a.developmentId}`)
    .sort();
}

export function parseJson(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}

export function millis(value: unknown): number | null {
  return value === null || value === undefined ? null : Date.parse(String(value));
}

/** Live rows of a table by id → the record as received. */
export async function liveRaw(store: Store, table: string, key = 'id'): Promise<Map<string, unknown>> {
  const rows = await store.db.selectFrom(table).select([key, 'raw']).where('deleted_at', 'is', null).execute();
  return new Map(rows.map((r) => [String(r[key]), parseJson(r.raw)]));
}

export async function rowsOf(store: Store, table: string): Promise<Record<string, unknown>[]> {
  return (await store.db.selectFrom(table).selectAll().execute()) as Record<string, unknown>[];
}

/** Sorted `a|b` pairs of two columns, for comparing child tables. */
export async function pairs(store: Store, table: string, a: string, b: string): Promise<string[]> {
  return (await rowsOf(store, table)).map((r) => `${r[a]}|${r[b]}`).sort();
}

/** Ids of rows of `table` whose `column` (a timestamp) is after `since`. */
export async function writtenAfter(store: Store, table: string, column: string, since: string): Promise<string[]> {
  const rows = await rowsOf(store, table);
  return rows
    .filter((r) => (millis(r[column]) ?? 0) > Date.parse(since))
    .map((r) => String(r.id))
    .sort();
}

/** The real client, except that fetching one of `failing` developments fails as a 5xx does after its retries. */
export function failingDetails(client: ApiClient, failing: ReadonlySet<string>): ApiClient & { refused: string[] } {
  const refused: string[] = [];
  const failingView = (inner: ApiClient): ApiClient => ({
    stats: inner.stats,
    service: inner.service,
    close: () => inner.close(),
    counting: (counter) => failingView(inner.counting(counter)),
    getBytes: (...args) => inner.getBytes(...args),
    get<T>(...[path, query, opts]: Parameters<ApiClient['get']>): Promise<T> {
      const id = /\/developments\/([^/?]+)$/.exec(path)?.[1];
      if (id && failing.has(decodeURIComponent(id))) {
        refused.push(id);
        return Promise.reject(new RetriableError('DS_HTTP_STATUS', `GET ${path} failed with HTTP 503 after 3 attempts`));
      }
      return inner.get<T>(path, query, opts);
    },
  });
  return Object.assign(failingView(client), { refused });
}

/** Waits so that timestamps written next are strictly after `Date.now()` now. */
export async function tick(): Promise<string> {
  const at = new Date().toISOString();
  await new Promise((r) => setTimeout(r, 5));
  return at;
}
