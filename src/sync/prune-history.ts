// Retention of row_history: versions that ended more than a table's retention_days ago are deleted at
// the end of each sync run. Tables without a retention (the default) keep every version, and then
// this reads one small table and writes nothing.
import type { Kysely } from 'kysely';
import type { SyncTables } from './sync-tables.js';

const DAY_MS = 86_400_000;

/** Deletes expired versions; returns how many. */
export async function pruneHistory(db: Kysely<SyncTables>, now: Date): Promise<number> {
  const settings = await db
    .selectFrom('history_settings')
    .select(['table_name', 'retention_days'])
    .where('retention_days', 'is not', null)
    .execute();
  let pruned = 0;
  for (const { table_name, retention_days } of settings) {
    const cutoff = new Date(now.getTime() - Number(retention_days) * DAY_MS).toISOString();
    const [result] = await db.deleteFrom('row_history').where('table_name', '=', table_name).where('valid_to', '<', cutoff).execute();
    pruned += Number(result?.numDeletedRows ?? 0n);
  }
  return pruned;
}
