// The analyst views (schema/views/): live rows, typed columns, one time form per store. Views hold no
// data, so a later change to any of them is a new migration that calls recreateViews() again (and, on
// PostgreSQL, applyComments() for the views, whose comments a drop removes: see 0016).
import type { Kysely } from 'kysely';
import type { ColumnTypes, Dialect } from '../../src/store/types.js';
import { recreateViews } from '../views/index.js';

export async function up(db: Kysely<any>, _t: ColumnTypes, dialect: Dialect): Promise<void> {
  await recreateViews(db, dialect);
}
