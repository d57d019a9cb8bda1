// Views over the `/v1` catalog: assets with their market data, projects, the daily market series and
// SEC filings. Fields as the `/v1` services name them; Unix-second times become the store's time type.
import { lift } from './lift.js';
import { liftedView, type LiftedColumn, type ViewSpec } from './view.js';

const pctChange = (field: string, what: string): LiftedColumn => ({
  name: `${field}`,
  kind: 'double',
  from: lift.double(`market_cap.${field}`),
  live: lift.column(`market_cap_${field}`),
  description: `Change of ${what}, in percent.`,
});

// The live view reads the columns the sync stored from the same fields (LiftedColumn.live): a dashboard's
// sort by rank then uses the table's index (assets_rank) instead of parsing every asset's raw.
const ASSET_COLUMNS: readonly LiftedColumn[] = [
  { name: 'id', kind: 'integer', from: lift.integer('id'), column: 'id', description: 'The `/v1` asset id.' },
  {
    name: 'asset_class',
    kind: 'text',
    from: lift.text('asset_class'),
    live: lift.column('asset_class'),
    description: "Asset class: 'token', 'equity' or 'tokenizedStock'.",
  },
  {
    name: 'code',
    kind: 'text',
    from: lift.text('code'),
    live: lift.column('code'),
    description: 'Ticker symbol (e.g. BTC); the crosswalk matches it to token-unlock and monitoring symbols.',
  },
  { name: 'title', kind: 'text', from: lift.text('title'), live: lift.column('title'), description: 'Display name.' },
  { name: 'slug', kind: 'text', from: lift.text('slug'), live: lift.column('slug'), description: 'URL slug, unique per asset.' },
  { name: 'category', kind: 'text', from: lift.text('category'), live: lift.column('category'), description: 'Category (e.g. Oracle).' },
  { name: 'sector', kind: 'text', from: lift.text('sector'), live: lift.column('sector'), description: 'Sector (e.g. Derivatives).' },
  { name: 'type', kind: 'text', from: lift.text('type'), live: lift.column('type'), description: "'Infrastructure' or 'Application'." },
  {
    name: 'is_preview',
    kind: 'boolean',
    from: lift.boolean('is_preview'),
    live: lift.column('is_preview'),
    description: 'Whether the asset is a preview listing.',
  },
  {
    name: 'market_cap_rank',
    kind: 'integer',
    from: lift.integer('market_cap.rank'),
    live: lift.column('market_cap_rank'),
    description: 'Rank by market capitalisation across every asset class, as the service gives it (1 = largest).',
  },
  {
    name: 'market_cap_usd',
    kind: 'double',
    from: lift.double('market_cap.usd'),
    live: lift.column('market_cap_usd'),
    description: 'Market capitalisation in USD.',
  },
  {
    name: 'market_cap_dominance',
    kind: 'double',
    from: lift.double('market_cap.dominance'),
    live: lift.column('market_cap_dominance'),
    description: 'Share of the total market capitalisation, in percent.',
  },
  pctChange('percent_change_usd_1h', 'the USD price over 1 hour'),
  pctChange('percent_change_usd_24h', 'the USD price over 24 hours'),
  pctChange('percent_change_usd_7d', 'the USD price over 7 days'),
  pctChange('percent_change_usd_30d', 'the USD price over 30 days'),
  pctChange('percent_change_usd_ytd', 'the USD price since 1 January'),
  pctChange('percent_change_btc_24h', 'the price in BTC over 24 hours'),
  pctChange('percent_change_eth_24h', 'the price in ETH over 24 hours'),
  { name: 'price_usd', kind: 'double', from: lift.double('price.usd'), live: lift.column('price_usd'), description: 'Price in USD.' },
  { name: 'price_btc', kind: 'double', from: lift.double('price.btc'), live: lift.column('price_btc'), description: 'Price in BTC.' },
  { name: 'price_eth', kind: 'double', from: lift.double('price.eth'), live: lift.column('price_eth'), description: 'Price in ETH.' },
  {
    name: 'price_updated_at',
    kind: 'timestamp',
    from: lift.unixTime('price.updated_at'),
    live: lift.timeColumn('price_updated_at'),
    description: 'When the price was last updated upstream.',
  },
  {
    name: 'equity_market_cap',
    kind: 'double',
    from: lift.double('equity_market_data.market_cap'),
    live: lift.column('equity_market_cap'),
    description: 'Equities: market capitalisation.',
  },
  {
    name: 'equity_price_to_earnings',
    kind: 'double',
    from: lift.double('equity_market_data.price_to_earnings'),
    live: lift.column('equity_price_to_earnings'),
    description: 'Equities: price to earnings ratio.',
  },
  {
    name: 'project_id',
    kind: 'integer',
    from: lift.integer('project.id'),
    live: lift.column('project_id'),
    description: 'The project behind the asset (v_projects.id).',
  },
  {
    name: 'project_slug',
    kind: 'text',
    from: lift.text('project.slug'),
    live: lift.column('project_slug'),
    description: 'The project’s slug.',
  },
  {
    name: 'updated_at',
    kind: 'timestamp',
    from: lift.unixTime('updated_at'),
    live: lift.timeColumn('updated_at'),
    description: 'When the asset record was last updated upstream.',
  },
];

const PROJECT_COLUMNS: readonly LiftedColumn[] = [
  { name: 'id', kind: 'integer', from: lift.integer('id'), column: 'id', description: 'The `/v1` project id.' },
  { name: 'title', kind: 'text', from: lift.text('title'), description: 'Display name.' },
  { name: 'slug', kind: 'text', from: lift.text('slug'), description: 'URL slug.' },
  { name: 'tagline', kind: 'text', from: lift.text('tagline'), description: 'One-line pitch.' },
  { name: 'url', kind: 'text', from: lift.text('url'), description: 'Website.' },
  { name: 'industry', kind: 'text', from: lift.text('industry'), description: 'Industry (v_industries).' },
  { name: 'sector', kind: 'text', from: lift.text('sector'), description: 'Sector.' },
  { name: 'group_name', kind: 'text', from: lift.text('group'), description: 'Group.' },
  {
    name: 'leaderboards',
    kind: 'json',
    from: lift.json('leaderboards'),
    description: 'Leaderboards the project appears on (JSON array of slugs).',
  },
  { name: 'updated_at', kind: 'timestamp', from: lift.unixTime('updated_at'), description: 'When the project was last updated upstream.' },
];

const MARKET_STATS_COLUMNS: readonly LiftedColumn[] = [
  { name: 'id', kind: 'integer', from: lift.integer('id'), column: 'id', description: 'The `/v1` market-stats row id.' },
  { name: 'date', kind: 'date', from: lift.date('date'), description: 'The day the figures describe (UTC).' },
  {
    name: 'total_market_cap_usd',
    kind: 'double',
    from: lift.double('total_market_cap_usd'),
    description: 'Total market capitalisation, USD.',
  },
  {
    name: 'total_volume_24h_usd',
    kind: 'double',
    from: lift.double('total_volume_24h_usd'),
    description: 'Total traded volume over 24 hours, USD.',
  },
  {
    name: 'btc_dominance',
    kind: 'double',
    from: lift.double('btc_dominance'),
    description: 'Bitcoin’s share of the total market capitalisation, in percent.',
  },
  {
    name: 'eth_dominance',
    kind: 'double',
    from: lift.double('eth_dominance'),
    description: 'Ether’s share of the total market capitalisation, in percent.',
  },
  {
    name: 'stablecoin_market_cap_usd',
    kind: 'double',
    from: lift.double('stablecoin_market_cap_usd'),
    description: 'Stablecoin market capitalisation, USD.',
  },
  {
    name: 'defi_market_cap_usd',
    kind: 'double',
    from: lift.double('defi_market_cap_usd'),
    description: 'DeFi market capitalisation, USD.',
  },
  {
    name: 'active_assets',
    kind: 'integer',
    from: lift.integer('active_assets'),
    description: 'Number of assets with market data that day.',
  },
  { name: 'updated_at', kind: 'timestamp', from: lift.unixTime('updated_at'), description: 'When the row was last updated upstream.' },
];

const SEC_FILING_COLUMNS: readonly LiftedColumn[] = [
  {
    name: 'accession_number',
    kind: 'text',
    from: lift.text('accession_number'),
    column: 'accession_number',
    description: 'SEC accession number (the key).',
  },
  { name: 'cik', kind: 'integer', from: lift.integer('cik'), description: 'SEC Central Index Key of the filer.' },
  { name: 'company', kind: 'text', from: lift.text('company'), description: 'Filer name.' },
  { name: 'ticker', kind: 'text', from: lift.text('ticker'), description: 'Filer ticker.' },
  { name: 'form_type', kind: 'text', from: lift.text('form_type'), description: 'Form (e.g. 8-K, 10-Q).' },
  { name: 'category', kind: 'text', from: lift.text('category'), description: 'Category of the form.' },
  { name: 'filing_date', kind: 'date', from: lift.date('filing_date'), description: 'Day filed.' },
  { name: 'report_date', kind: 'date', from: lift.date('report_date'), description: 'Day of the period reported, when given.' },
  { name: 'title', kind: 'text', from: lift.text('title'), description: 'Title.' },
  { name: 'url', kind: 'text', from: lift.text('url'), description: 'Link to the filing index on sec.gov.' },
];

export const catalogViews: readonly ViewSpec[] = [
  ...liftedView({
    name: 'v_assets',
    description: 'Live `/v1` assets (tokens, equities, tokenized stocks) with price and market capitalisation as typed columns.',
    table: 'assets',
    columns: ASSET_COLUMNS,
    history: true,
  }),
  ...liftedView({ name: 'v_projects', description: 'Live `/v1` projects.', table: 'projects', columns: PROJECT_COLUMNS, history: true }),
  ...liftedView({
    name: 'v_market_stats_daily',
    description: 'The daily market series from `/v1/market-stats`: one row per day, every measure a double.',
    table: 'market_stats',
    columns: MARKET_STATS_COLUMNS,
    history: true,
  }),
  ...liftedView({
    name: 'v_sec_filings',
    description: 'Live SEC filings.',
    table: 'sec_filings',
    columns: SEC_FILING_COLUMNS,
    history: true,
  }),
];
