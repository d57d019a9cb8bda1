// Partial indexes on the live rows' keys of the versioned tables that 0006 left without one. A versions
// view counts its rows in SQLite before 3.42 by computing every value its UNION ALL passes (Debian 12 and
// Python link 3.40), so on SQLite it passes only a live row's key and rowid, read from such an index, and
// looks the rest up by rowid where a column asks for it (schema/views/view.ts): without the index, counting
// v_developments_history read every development's row, raw included. An index on the key where
// deleted_at is null holds both the key and the rowid; the tables' writes add one small b-tree entry.
import { sql, type Kysely } from 'kysely';

const LIVE_KEYS: readonly [table: string, column: string][] = [
  ['monitoring_developments', 'id'],
  ['monitoring_views', 'id'],
  ['asset_market_cap', 'asset_id'],
  ['asset_markets', 'asset_id'],
  ['asset_ohlcv', 'asset_id'],
  ['asset_price', 'asset_id'],
  ['asset_supply', 'asset_id'],
  ['asset_transparency', 'asset_id'],
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const [table, column] of LIVE_KEYS) {
    await db.schema.createIndex(`${table}_live_keys`).on(table).column(column).where(sql.ref('deleted_at'), 'is', null).execute();
  }
}
