// A backfilled alert was one per (view, event), pinned to the event's newest development, whether or
// not that development matched the view. The backfill now reconstructs the alerts of each development
// by the view's own predicates: an alert says when a reconstruction found it and which of the view's
// predicates the mirrored data could not test. Existing alerts are kept as they are (null in both:
// a backfilled one is then an event match, not a reconstruction, until a backfill confirms it).
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../src/store/types.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('alert_history').addColumn('reconstructed_at', t.timestamp).execute();
  await db.schema.alterTable('alert_history').addColumn('unchecked_predicates', t.text).execute();
}
