// stream_state.high_water was never written by a sync: the date-window streams read their high water
// from their own table, and the monitoring views keep theirs in pass_marks (0017).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('stream_state').dropColumn('high_water').execute();
}
