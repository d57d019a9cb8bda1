// What each stream fetched on its last complete run in the same mode: the progress total when the
// stream itself cannot say (monitoring lists, date windows), shown as an estimate. A stream never run
// against the real service starts from its published size, as `--plan` estimates it.
import { allStreams, publishedRows } from '../catalog/index.js';
import type { Store } from '../store/types.js';

/**
 * The estimates of a run: each stream's last run, else (against a service that is not on this machine,
 * where the sandbox's sizes are its own) the real service's published size.
 */
export async function runEstimates(
  store: Store,
  streams: readonly string[],
  mode: 'full' | 'incremental',
  baseUrl: string,
): Promise<Map<string, number>> {
  const estimates = await lastRunRows(store, streams, mode);
  if (/^https?:\/\/(127\.|localhost|\[::1\])/.test(baseUrl)) return estimates;
  for (const s of streams) {
    const def = allStreams().find((d) => d.name === s);
    const published = def && publishedRows(def);
    if (!estimates.has(s) && published !== undefined) estimates.set(s, published);
  }
  return estimates;
}

export async function lastRunRows(store: Store, streams: readonly string[], mode: 'full' | 'incremental'): Promise<Map<string, number>> {
  if (streams.length === 0) return new Map();
  const rows = (await store.db
    .selectFrom('sync_run_streams as s')
    .innerJoin('sync_runs as r', 'r.id', 's.run_id')
    .select(['s.stream', 's.fetched'])
    .where('s.stream', 'in', [...streams])
    .where('r.mode', '=', mode)
    .where('s.outcome', 'in', ['success', 'partial'])
    .orderBy('s.run_id', 'desc')
    .execute()) as { stream: string; fetched: number | string }[];
  const last = new Map<string, number>();
  for (const r of rows) if (!last.has(r.stream)) last.set(r.stream, Number(r.fetched));
  return last;
}
