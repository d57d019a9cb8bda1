// SQLite: a view's boolean columns declared `BOOLEAN`, spelled as docs/analyst.md gives the declared types
// (`INTEGER`, `REAL`, `BOOLEAN`, `TEXT`): they take it from view_column_types (migration 0041), which
// declared `boolean`. A tool that compares type names exactly saw two spellings. The table holds no row
// (its check refuses any); SQLite lets a table the views read be dropped and made again, and the views
// then read the new declaration. PostgreSQL types a view's columns from their expressions: nothing to do.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes, Dialect } from '../../src/store/types.js';

export async function up(db: Kysely<any>, t: ColumnTypes, dialect: Dialect): Promise<void> {
  if (dialect !== 'sqlite') return;
  await db.schema.dropTable('view_column_types').execute();
  await db.schema
    .createTable('view_column_types')
    .addColumn('text_value', t.text)
    .addColumn('integer_value', t.bigint)
    .addColumn('real_value', t.double)
    .addColumn('boolean_value', sql`BOOLEAN`)
    .addCheckConstraint('view_column_types_empty', sql`1 = 0`)
    .execute();
}
