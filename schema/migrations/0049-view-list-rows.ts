// A view's first complete backfill was bounded by the alerts the mirror held for it (the page guard's
// "rows it held last time"): after a while of webhooks alone, a few hundred alerts stood for a list of
// thousands of matching events, and the pass stopped as if the list were endless. A complete pass now
// records how many rows the list held, and the next one is bounded by that.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../src/store/types.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('pass_marks').addColumn('list_rows', t.integer).execute();
}
