// Typed history: row_history kept only the previous version's raw record, so an analyst asking
// for an old price of a table without a typed view read JSON (camelCase keys on the monitoring services).
// The history trigger of each table whose versions view reads the table's own columns now also keeps the
// previous version's columns (the typed ones, not raw and the bookkeeping) in `typed_row`, a JSON object
// by column name, read back with the table's types by the v_*_history views. Versions kept before this
// migration, and those of tables whose views lift everything from raw, have none (null).
// Frozen: this migration adds the column. It once also rewrote the triggers; they are a repeatable object
// now (schema/history/triggers.ts), made after the migrations with the columns of the day.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../src/store/types.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('row_history').addColumn('typed_row', t.json).execute();
}
