// The repeatable objects' ledger: the analyst views and the dictionary's comments are made after the
// migrations whenever their definition's hash differs from the one stored here (schema/repeatables.ts).
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../src/store/types.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('schema_objects')
    .addColumn('name', t.text, (c) => c.primaryKey())
    .addColumn('definition_hash', t.text, (c) => c.notNull())
    .addColumn('applied_at', t.timestamp, (c) => c.notNull())
    .execute();
}
