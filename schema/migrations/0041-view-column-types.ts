// A view's columns show no type to a tool that reads them (PRAGMA table_info) on SQLite: before 3.44 only
// a column read straight from a table has a declared type. Every analyst view therefore starts with an
// empty branch read from this table, whose columns carry the types (src/store/sqlite/sqlite-analyst-sql.ts,
// typedView). A check no row passes keeps it empty (the views read it without a WHERE, so that SQLite
// counts a view without computing its columns); PostgreSQL has one too, so both stores hold the same tables.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../../src/store/types.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('view_column_types')
    .addColumn('text_value', t.text)
    .addColumn('integer_value', t.bigint)
    .addColumn('real_value', t.double)
    .addColumn('boolean_value', 'boolean')
    .addCheckConstraint('view_column_types_empty', sql`1 = 0`)
    .execute();
}
