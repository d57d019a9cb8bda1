// What each stream fetched on its last complete run in the same mode: the progress total when the
// stream itself cannot say (monitoring lists, date windows), shown as an estimate.
import type { Store } from '../store/types.js';

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
