// Partial indexes on the keys of live rows. Deletion detection after every complete pass reads the live
// keys of a list (`... where deleted_at is null [and asset_class = ?]`): without these it scans whole rows
// (raw JSON included), with them it reads a few bytes per row.
import { sql, type Kysely } from 'kysely';

const LIVE_KEYS: readonly [table: string, columns: readonly string[]][] = [
  ['assets', ['asset_class', 'id']],
  ['transparency_ratings', ['id']],
  ['projects', ['id']],
  ['chains', ['id']],
  ['sectors', ['slug']],
  ['groups', ['slug']],
  ['industries', ['slug']],
  ['glossary', ['id']],
  ['market_stats', ['id']],
  ['metrics', ['identifier']],
  ['sec_filings', ['accession_number']],
  ['charts', ['id']],
  ['token_unlock_assets', ['id']],
  ['monitoring_events', ['id']],
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const [table, columns] of LIVE_KEYS) {
    await db.schema
      .createIndex(`${table}_live_keys`)
      .on(table)
      .columns([...columns])
      .where(sql.ref('deleted_at'), 'is', null)
      .execute();
  }
  // The high-water marks of the date-window streams.
  await db.schema.createIndex('market_stats_date').on('market_stats').column('date').execute();
  await db.schema.createIndex('sec_filings_filing_date').on('sec_filings').column('filing_date').execute();
}
