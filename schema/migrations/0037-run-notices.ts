// What a person should know of a run that is not an error (deletions held back because a page lied,
// records dated in the future) was said only in the run's summary: it is kept with the stream's run and
// its state, so `status` says it too.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../src/store/types.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('sync_run_streams').addColumn('notice', t.text).execute();
  await db.schema.alterTable('stream_state').addColumn('last_notice', t.text).execute();
}
