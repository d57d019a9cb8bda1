// The `/v1` lists (the README's Schema section lists their tables). Page sizes are each endpoint's maximum (requests are
// precious: the real `/v1` has a monthly quota). Published sizes are the real service's (about 133,000 assets,
// 1,100 projects, 26 chains, 3,200 charts, 400 metrics), split and completed as the sandbox's `--profile real`
// serves them (assets per class, rows per day of the date-window lists).
import { firstOf, isoDateOf, nested, same, unixTimeOf, unixTimes } from './mapping.js';
import { pageNumber } from './paginator.js';
import type { ListStream } from './types.js';

const MARKET_CAP = [
  'rank',
  'usd',
  'dominance',
  'percent_change_btc_1h',
  'percent_change_btc_24h',
  'percent_change_usd_1h',
  'percent_change_usd_24h',
  'percent_change_usd_7d',
  'percent_change_usd_30d',
  'percent_change_usd_ytd',
  'percent_change_eth_1h',
  'percent_change_eth_24h',
  'updated_at',
] as const;
const PRICE = ['usd', 'btc', 'eth', 'updated_at'] as const;
const EQUITY = [
  'market_cap',
  'shares_outstanding',
  'avg_daily_volume_30d',
  'ttm_revenue',
  'ttm_earnings',
  'price_to_sales',
  'price_to_earnings',
  'earnings_per_share',
  'updated_at',
] as const;
const RATINGS = ['project_team', 'token_allocation', 'market_structure', 'financial_disclosure'] as const;

/** Records whose fields the spec does not show: identifiers lifted into columns, the rest in `raw`. */
const LIFTED = {
  id: 'id',
  slug: 'slug',
  title: firstOf('title', 'name'),
  updated_at: unixTimeOf(firstOf('updated_at', 'updatedAt')),
};

export const assets: ListStream = {
  kind: 'list',
  name: 'assets',
  published: { rows: { token: 73_824, equity: 39_450, tokenizedStock: 19_726 } },
  versionsFromRaw: true,
  description: 'Assets of every class (token, equity, tokenizedStock) with market cap, price and equity data',
  path: '/v1/assets',
  paginator: pageNumber(100),
  records: 'data',
  query: { expand: 'market_cap,price,equity_market_data,project' },
  variants: (['token', 'equity', 'tokenizedStock'] as const).map((c) => ({
    name: c,
    query: { asset_class: c },
    scope: { asset_class: c },
  })),
  table: 'assets',
  key: ['id'],
  columns: {
    ...same([
      'id',
      'asset_class',
      'code',
      'title',
      'slug',
      'tag_line',
      'description',
      'image_url',
      'category',
      'is_preview',
      'updated_at',
      'type',
      'sector',
      'sparkline',
    ]),
    ...nested('market_cap', MARKET_CAP),
    ...nested('price', PRICE),
    ...Object.fromEntries(EQUITY.map((f) => [`equity_${f}`, `equity_market_data.${f}`])),
    ...nested('project', ['id', 'title', 'slug', 'image_url']),
    ...unixTimes({
      updated_at: 'updated_at',
      market_cap_updated_at: 'market_cap.updated_at',
      price_updated_at: 'price.updated_at',
      equity_updated_at: 'equity_market_data.updated_at',
    }),
  },
  required: ['id', 'code', 'title', 'slug', 'asset_class'],
  detectDeletes: true,
};

/** Assets per class the top tier reads when `topAssets` is not configured: one page of each class. */
export const DEFAULT_TOP_ASSETS = 100;

/**
 * The cheap, frequent tier of assets: the first `topAssets` of each class by market_cap.rank, where the
 * prices that matter move. /v1/assets has no change filter, so a complete pass costs ~1,330 requests
 * at real sizes (half the month's /v1 quota); this costs one per class. Partial, so it never deletes.
 */
export const assetsTop: ListStream = {
  ...assets,
  name: 'assets-top',
  description: 'The top of each asset class by market_cap.rank (topAssets per class, default 100): partial, never deletes',
  query: { ...assets.query, order_by: 'market_cap.rank', order_dir: 'asc' },
  detectDeletes: false,
  maxRecords: { setting: 'topAssets', default: DEFAULT_TOP_ASSETS },
  // Its size is its setting's, not the list's.
  published: undefined,
  // Named by the schedule's jobs (or on the command line); a default run's complete `assets` covers it.
  optIn: true,
};

export const transparency: ListStream = {
  kind: 'list',
  name: 'transparency',
  published: { rows: 500 },
  description: 'Transparency ratings of assets',
  path: '/v1/transparency',
  paginator: pageNumber(1000),
  records: 'data',
  table: 'transparency_ratings',
  key: ['id'],
  columns: {
    ...same([
      'id',
      'asset_id',
      'summary',
      'created_at',
      'updated_at',
      'asset_code',
      'asset_title',
      'asset_slug',
      'asset_image_url',
      'download_url',
    ]),
    ...unixTimes({ created_at: 'created_at', updated_at: 'updated_at' }),
    ...Object.fromEntries(
      RATINGS.flatMap((r) => [
        [`${r}_rating`, `${r}.rating`],
        [`${r}_max`, `${r}.max`],
      ]),
    ),
  },
  required: ['id', 'asset_id'],
  detectDeletes: true,
};

export const projects: ListStream = {
  kind: 'list',
  name: 'projects',
  published: { rows: 1_100 },
  versionsFromRaw: true,
  description: 'Projects with their industry, sector, group and parent project',
  path: '/v1/projects',
  paginator: pageNumber(10000),
  records: 'data',
  // `asset` is not expanded: its market data changes every minute and would make every project a change.
  query: { expand: 'parent_project' },
  table: 'projects',
  key: ['id'],
  columns: {
    ...same([
      'id',
      'title',
      'tagline',
      'description',
      'slug',
      'url',
      'image_url',
      'updated_at',
      'force_searchable',
      'industry',
      'sector',
      'leaderboards',
    ]),
    group_name: 'group',
    parent_project_id: 'parent_project.id',
    ...unixTimes({ updated_at: 'updated_at' }),
  },
  required: ['id', 'title', 'slug'],
  detectDeletes: true,
};

export const chains: ListStream = {
  kind: 'list',
  name: 'chains',
  published: { rows: 26 },
  description: 'Chains (fields not shown by the spec: kept in raw)',
  path: '/v1/chains',
  paginator: pageNumber(10000),
  records: 'data',
  table: 'chains',
  key: ['id'],
  columns: LIFTED,
  required: ['id'],
  detectDeletes: true,
};

/** The taxonomies' published sizes. */
const TAXONOMY_ROWS = { sectors: 24, groups: 12, industries: 60 } as const;

function taxonomy(name: keyof typeof TAXONOMY_ROWS): ListStream {
  return {
    kind: 'list',
    name,
    published: { rows: TAXONOMY_ROWS[name] },
    description: `${name[0].toUpperCase()}${name.slice(1)} (fields not shown by the spec: kept in raw)`,
    path: `/v1/${name}`,
    paginator: pageNumber(1000),
    records: 'data',
    query: { order_by: 'slug', order_dir: 'asc' },
    table: name,
    key: ['slug'],
    columns: LIFTED,
    required: ['slug'],
    detectDeletes: true,
  };
}

export const glossary: ListStream = {
  kind: 'list',
  name: 'glossary',
  published: { rows: 300 },
  description: 'Glossary entries',
  path: '/v1/glossary',
  paginator: pageNumber(1000),
  records: 'data',
  table: 'glossary',
  key: ['id'],
  columns: { ...LIFTED, title: firstOf('title', 'term', 'name') },
  required: ['id'],
  detectDeletes: true,
};

export const marketStats: ListStream = {
  kind: 'list',
  name: 'market-stats',
  published: { rows: 10_417, rowsPerDay: 1 },
  versionsFromRaw: true,
  description: 'Market statistics by date; incremental from the newest date minus a lookback',
  path: '/v1/market-stats',
  keyless: true,
  paginator: pageNumber(100),
  records: 'data',
  query: { order_by: 'id', order_dir: 'asc' },
  table: 'market_stats',
  key: ['id'],
  columns: { id: 'id', date: isoDateOf(firstOf('date', 'timestamp')) },
  required: ['id', 'date'],
  detectDeletes: true,
  window: { startParam: 'start_date', field: 'date', format: 'date', defaultLookbackDays: 3 },
};

export const metrics: ListStream = {
  kind: 'list',
  name: 'metrics',
  published: { rows: 400 },
  description: 'The metrics catalogue',
  path: '/v1/metrics',
  paginator: pageNumber(1000),
  records: 'data',
  table: 'metrics',
  key: ['identifier'],
  columns: { identifier: 'identifier', title: firstOf('title', 'name'), data_type: firstOf('data_type', 'dataType') },
  required: ['identifier'],
  detectDeletes: true,
};

export const secFilings: ListStream = {
  kind: 'list',
  name: 'sec-filings',
  published: { rows: 1_000, rowsPerDay: 1.1 },
  versionsFromRaw: true,
  description: 'SEC filings; incremental from the newest filing date minus a lookback',
  path: '/v1/sec/filings',
  paginator: pageNumber(100),
  records: 'data',
  table: 'sec_filings',
  key: ['accession_number'],
  columns: {
    accession_number: firstOf('accessionNumber', 'accession_number'),
    company: 'company',
    form_type: firstOf('formType', 'form_type'),
    category: 'category',
    filing_date: isoDateOf(firstOf('filingDate', 'filing_date')),
  },
  required: [],
  detectDeletes: true,
  window: { startParam: 'start_filing_date', field: 'filing_date', format: 'date', defaultLookbackDays: 7 },
};

export const charts: ListStream = {
  kind: 'list',
  name: 'charts',
  published: { rows: 3_200 },
  description: 'Charts and the dashboards that show them',
  path: '/v1/charts',
  paginator: pageNumber(100),
  records: 'data',
  table: 'charts',
  key: ['id'],
  columns: same(['id', 'title', 'dashboards']),
  required: ['id'],
  detectDeletes: true,
};

export const v1Lists: readonly ListStream[] = [
  assets,
  transparency,
  projects,
  chains,
  taxonomy('sectors'),
  taxonomy('groups'),
  taxonomy('industries'),
  glossary,
  marketStats,
  metrics,
  secFilings,
  charts,
];
