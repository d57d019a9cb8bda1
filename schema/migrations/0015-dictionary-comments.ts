// PostgreSQL only: the data dictionary (src/dictionary/) as COMMENT ON every table, view and column,
// for BI tools and psql's \d+. A later change to the dictionary re-applies it with a new migration.
import type { Kysely } from 'kysely';
import type { ColumnTypes, Dialect } from '../../src/store/types.js';
import { DICTIONARY } from '../../src/dictionary/index.js';
import { applyComments } from '../../src/dictionary/comments.js';

export async function up(db: Kysely<any>, _t: ColumnTypes, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return; // SQLite has no comments: `ds-mirror schema` describes it
  await applyComments(db, DICTIONARY);
}
