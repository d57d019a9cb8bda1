// The `/v1` catalog and market-data tables: a real column for every field the spec shows (nested
// objects flattened, e.g. market_cap_rank), identifiers lifted from records it does not detail.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../src/store/types.js';
import { mirrored } from '../columns.js';

type Kind = keyof ColumnTypes;
type Columns = readonly (readonly [string, Kind])[];

const pct = (prefix: string, fields: string[]): Columns => fields.map((f) => [`${prefix}_${f}`, 'double'] as const);

const ASSET: Columns = [
  ['asset_class', 'text'],
  ['code', 'text'],
  ['title', 'text'],
  ['slug', 'text'],
  ['tag_line', 'text'],
  ['description', 'text'],
  ['image_url', 'text'],
  ['category', 'text'],
  ['is_preview', 'boolean'],
  ['updated_at', 'bigint'],
  ['type', 'text'],
  ['sector', 'text'],
  ['sparkline', 'text'],
  ['market_cap_rank', 'bigint'],
  ['market_cap_usd', 'double'],
  ['market_cap_dominance', 'double'],
  ...pct('market_cap', [
    'percent_change_btc_1h',
    'percent_change_btc_24h',
    'percent_change_usd_1h',
    'percent_change_usd_24h',
    'percent_change_usd_7d',
    'percent_change_usd_30d',
    'percent_change_usd_ytd',
    'percent_change_eth_1h',
    'percent_change_eth_24h',
  ]),
  ['market_cap_updated_at', 'bigint'],
  ['price_usd', 'double'],
  ['price_btc', 'double'],
  ['price_eth', 'double'],
  ['price_updated_at', 'bigint'],
  ...pct('equity', [
    'market_cap',
    'shares_outstanding',
    'avg_daily_volume_30d',
    'ttm_revenue',
    'ttm_earnings',
    'price_to_sales',
    'price_to_earnings',
    'earnings_per_share',
  ]),
  ['equity_updated_at', 'bigint'],
  ['project_id', 'bigint'],
  ['project_title', 'text'],
  ['project_slug', 'text'],
  ['project_image_url', 'text'],
];

const TRANSPARENCY: Columns = [
  ['asset_id', 'bigint'],
  ['summary', 'text'],
  ['created_at', 'bigint'],
  ['updated_at', 'bigint'],
  ['asset_code', 'text'],
  ['asset_title', 'text'],
  ['asset_slug', 'text'],
  ['asset_image_url', 'text'],
  ...['project_team', 'token_allocation', 'market_structure', 'financial_disclosure'].flatMap(
    (r) =>
      [
        [`${r}_rating`, 'double'],
        [`${r}_max`, 'double'],
      ] as const,
  ),
  ['download_url', 'text'],
];

const PROJECT: Columns = [
  ['title', 'text'],
  ['tagline', 'text'],
  ['description', 'text'],
  ['slug', 'text'],
  ['url', 'text'],
  ['image_url', 'text'],
  ['updated_at', 'bigint'],
  ['force_searchable', 'boolean'],
  ['industry', 'text'],
  ['sector', 'text'],
  ['group_name', 'text'],
  ['leaderboards', 'json'],
  ['parent_project_id', 'bigint'],
];

const LIFTED: Columns = [
  ['slug', 'text'],
  ['title', 'text'],
  ['updated_at', 'bigint'],
];

const MARKETS: Columns = [
  ['volume_24h', 'double'],
  ['ath', 'double'],
  ['ath_date', 'bigint'],
  ['ath_change_percentage', 'double'],
  ['total_open_interest', 'double'],
  ['total_liquidations', 'double'],
  ['updated_at', 'bigint'],
  ['asset_code', 'text'],
  ['asset_slug', 'text'],
];
const OHLCV: Columns = [
  ['open', 'double'],
  ['high', 'double'],
  ['low', 'double'],
  ['close', 'double'],
  ['volume', 'double'],
  ['updated_at', 'bigint'],
  ['asset_code', 'text'],
  ['asset_slug', 'text'],
];

/** A mirrored table: key columns first, then the mapped columns, then raw/hash/timestamps. */
async function table(db: Kysely<any>, t: ColumnTypes, name: string, key: Columns, columns: Columns): Promise<void> {
  let builder = db.schema.createTable(name);
  for (const [column, kind] of [...key, ...columns]) builder = builder.addColumn(column, t[kind]);
  builder = builder.addPrimaryKeyConstraint(`${name}_pk`, key.map(([c]) => c) as any);
  await mirrored(builder, t).execute();
}

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  const id: Columns = [['id', 'bigint']];
  await table(db, t, 'assets', id, ASSET);
  await db.schema.createIndex('assets_slug').on('assets').column('slug').execute();
  await db.schema.createIndex('assets_rank').on('assets').column('market_cap_rank').execute();
  await table(db, t, 'transparency_ratings', id, TRANSPARENCY);
  await table(db, t, 'projects', id, PROJECT);
  await table(db, t, 'chains', id, LIFTED);
  for (const name of ['sectors', 'groups', 'industries']) {
    await table(
      db,
      t,
      name,
      [['slug', 'text']],
      [
        ['id', 'bigint'],
        ['title', 'text'],
        ['updated_at', 'bigint'],
      ],
    );
  }
  await table(db, t, 'glossary', id, LIFTED);
  await table(db, t, 'market_stats', id, [['date', 'text']]);
  await table(
    db,
    t,
    'metrics',
    [['identifier', 'text']],
    [
      ['title', 'text'],
      ['data_type', 'text'],
    ],
  );
  await table(
    db,
    t,
    'sec_filings',
    [['accession_number', 'text']],
    [
      ['company', 'text'],
      ['form_type', 'text'],
      ['category', 'text'],
      ['filing_date', 'text'],
    ],
  );
  await table(db, t, 'charts', id, [
    ['title', 'text'],
    ['dashboards', 'json'],
  ]);

  // Fan-outs: one record per selected asset...
  const asset: Columns = [['asset_id', 'bigint']];
  await table(db, t, 'asset_markets', asset, MARKETS);
  await table(db, t, 'asset_ohlcv', asset, OHLCV);
  for (const name of ['asset_price', 'asset_market_cap', 'asset_supply']) await table(db, t, name, asset, []);
  await table(db, t, 'asset_transparency', asset, [['rating_id', 'bigint']]);

  // ...and many rows per parent, replaced whole when the parent's content hash changes.
  await db.schema
    .createTable('project_chains')
    .addColumn('project_id', t.bigint, (c) => c.notNull())
    .addColumn('chain_id', t.bigint, (c) => c.notNull())
    .addColumn('raw', t.json, (c) => c.notNull())
    .addPrimaryKeyConstraint('project_chains_pk', ['project_id', 'chain_id'])
    .execute();
  await db.schema
    .createTable('metric_series')
    .addColumn('metric', 'text', (c) => c.notNull())
    .addColumn('project', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('value', t.double)
    .addColumn('raw', t.json, (c) => c.notNull())
    .addPrimaryKeyConstraint('metric_series_pk', ['metric', 'project', 'date'])
    .execute();
  await db.schema
    .createTable('chart_rows')
    .addColumn('chart_id', t.bigint, (c) => c.notNull())
    .addColumn('row_number', t.integer, (c) => c.notNull())
    .addColumn('data', t.json, (c) => c.notNull())
    .addPrimaryKeyConstraint('chart_rows_pk', ['chart_id', 'row_number'])
    .execute();
  // The content hash of each parent's children as last written: an unchanged parent costs no write.
  await db.schema
    .createTable('fanout_parents')
    .addColumn('stream', 'text', (c) => c.notNull())
    .addColumn('parent_key', 'text', (c) => c.notNull())
    .addColumn('row_hash', 'text', (c) => c.notNull())
    .addColumn('rows', t.integer, (c) => c.notNull())
    .addColumn('synced_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('fanout_parents_pk', ['stream', 'parent_key'])
    .execute();
}
