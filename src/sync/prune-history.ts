// Retention of row_history: versions that ended more than a table's retention ago are deleted at the end
// of each sync run. A table without a history_settings row keeps DEFAULT_RETENTION_DAYS; a row sets its
// own (retention_days null: every version kept).
import type { Kysely } from 'kysely';
import type { SyncTables } from './sync-tables.js';

const DAY_MS = 86_400_000;

/**
 * Days of versions a table without a history_settings row keeps. At real sizes the kept versions grow a
 * mirror by about 24 MB a day (most of it monitoring events and developments, whose raw changes as
 * developments arrive): every version kept, a SQLite file reaches about 9 GB in a year; with 90 days it
 * levels off in the fourth month at about 3.5 GB, under 4 GB (measured at scale 10: 2.2 GB, 74% of it
 * versions; bench/RESULTS.md states the real sizes from it), and a quarter
 * back is as far as the as-of questions of docs/analyst.md usually reach (bench/RESULTS.md, bench/year.ts).
 */
export const DEFAULT_RETENTION_DAYS = 90;

const cutoff = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();

/** Deletes expired versions; returns how many. */
export async function pruneHistory(db: Kysely<SyncTables>, now: Date): Promise<number> {
  const settings = await db.selectFrom('history_settings').select(['table_name', 'retention_days']).execute();
  let pruned = 0;
  for (const { table_name, retention_days } of settings) {
    if (retention_days === null) continue;
    const [result] = await db
      .deleteFrom('row_history')
      .where('table_name', '=', table_name)
      .where('valid_to', '<', cutoff(now, Number(retention_days)))
      .execute();
    pruned += Number(result?.numDeletedRows ?? 0n);
  }
  let unset = db.deleteFrom('row_history').where('valid_to', '<', cutoff(now, DEFAULT_RETENTION_DAYS));
  const set = settings.map((s) => s.table_name);
  if (set.length > 0) unset = unset.where('table_name', 'not in', set);
  const [result] = await unset.execute();
  return pruned + Number(result?.numDeletedRows ?? 0n);
}
