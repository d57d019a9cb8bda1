// "What the last run that changed a table changed" (docs/examples/07 and 08) reads the versions one run
// ended: at a year's size the monthly pass of assets ends 140,000 of them. With only (table_name,
// ended_by_run_id) indexed, SQLite read each one's row_history row (its raw JSON beside it) to learn its
// key or its kind of change: 0.5-0.6 s of CPU in Debian 12's SQLite 3.40 for the count per change, and
// yesterday's values of the 20 top assets. This index holds both, so those read the index alone; it
// replaces 0047's, a prefix of it (one index kept up on each write, as before).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('row_history_changed_rows')
    .on('row_history')
    .columns(['table_name', 'ended_by_run_id', 'change', 'row_key'])
    .execute();
  await db.schema.dropIndex('row_history_table_ended_by').execute();
}
