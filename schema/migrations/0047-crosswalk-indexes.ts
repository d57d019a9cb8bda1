// The asset crosswalk (v_asset_crosswalk) looks each token-unlock and monitoring asset up in the live
// `/v1` assets by lower-cased symbol and name: indexed here, or SQLite compares every pair (3 s at
// scale 2, where a dashboard refreshes in well under a second). The history views' "last run that
// changed this table" (max(ended_by_run_id) per table_name) reads an index too.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index assets_code_lower on assets (lower(code)) where deleted_at is null`.execute(db);
  await sql`create index assets_title_lower on assets (lower(title)) where deleted_at is null`.execute(db);
  await db.schema.createIndex('row_history_table_ended_by').on('row_history').columns(['table_name', 'ended_by_run_id']).execute();
}
