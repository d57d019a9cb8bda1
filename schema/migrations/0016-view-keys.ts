// The analyst views read their key columns from the table (not from raw), so a join on a view's key
// uses the table's primary key: `v_event_assets join v_assets on v_assets.id = v1_asset_id` was a scan
// of every asset, lifting ids from JSON, per event asset. Recreating views drops PostgreSQL's comments
// on them, so the dictionary's comments are applied again.
import type { Kysely } from 'kysely';
import type { ColumnTypes, Dialect } from '../../src/store/types.js';
import { recreateViews } from '../views/index.js';
import { DICTIONARY } from '../../src/dictionary/index.js';
import { applyComments } from '../../src/dictionary/comments.js';

export async function up(db: Kysely<any>, _t: ColumnTypes, dialect: Dialect): Promise<void> {
  await recreateViews(db, dialect);
  if (dialect === 'postgres')
    await applyComments(
      db,
      DICTIONARY.filter((d) => d.kind === 'view'),
    );
}
