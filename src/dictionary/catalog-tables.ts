// The `/v1` catalog and market-data tables: the faithful mirror (raw plus lifted columns). Times from
// the `/v1` services are Unix seconds here; the v_* views turn them into the store's time type.
import type { TableSource } from './types.js';

const unix = (what: string) => `${what} (Unix seconds, as the API sends it).`;
const pctNames: Record<string, string> = {
  btc_1h: 'in BTC over 1 hour', btc_24h: 'in BTC over 24 hours', usd_1h: 'in USD over 1 hour', usd_24h: 'in USD over 24 hours',
  usd_7d: 'in USD over 7 days', usd_30d: 'in USD over 30 days', usd_ytd: 'in USD since 1 January', eth_1h: 'in ETH over 1 hour', eth_24h: 'in ETH over 24 hours',
};
const equityNames: Record<string, string> = {
  market_cap: 'market capitalisation', shares_outstanding: 'shares outstanding', avg_daily_volume_30d: 'average daily volume over 30 days',
  ttm_revenue: 'revenue over the trailing twelve months', ttm_earnings: 'earnings over the trailing twelve months',
  price_to_sales: 'price to sales ratio', price_to_earnings: 'price to earnings ratio', earnings_per_share: 'earnings per share',
};
const ratings: Record<string, string> = {
  project_team: 'project team', token_allocation: 'token allocation', market_structure: 'market structure', financial_disclosure: 'financial disclosure',
};
const lifted = { slug: 'URL slug.', title: 'Display name.', updated_at: unix('When the record was last updated upstream') };
const fanoutAsset = { asset_id: 'The `/v1` asset (assets.id) this record belongs to.' };

export const catalogTables: readonly TableSource[] = [
  {
    name: 'assets', group: '/v1 catalog', mirrored: true,
    description: 'Every `/v1` asset (tokens, equities, tokenized stocks), one row per asset id; nested objects flattened (market_cap.rank → market_cap_rank).',
    columns: {
      id: 'The `/v1` asset id.', asset_class: "'token', 'equity' or 'tokenizedStock'.", code: 'Ticker symbol.', title: 'Display name.', slug: 'URL slug.',
      tag_line: 'One-line pitch.', description: 'Description.', image_url: 'Logo URL.', category: 'Category.', is_preview: 'Whether the asset is a preview listing.',
      updated_at: unix('When the asset was last updated upstream'), type: "'Infrastructure' or 'Application'.", sector: 'Sector.',
      sparkline: 'Recent prices, comma-separated.', market_cap_rank: 'Rank by market capitalisation.', market_cap_usd: 'Market capitalisation, USD.',
      market_cap_dominance: 'Share of the total market capitalisation, percent.',
      ...Object.fromEntries(Object.entries(pctNames).map(([k, v]) => [`market_cap_percent_change_${k}`, `Price change ${v}, percent.`])),
      market_cap_updated_at: unix('When the market-cap figures were updated'), price_usd: 'Price in USD.', price_btc: 'Price in BTC.', price_eth: 'Price in ETH.',
      price_updated_at: unix('When the price was updated'),
      ...Object.fromEntries(Object.entries(equityNames).map(([k, v]) => [`equity_${k}`, `Equities: ${v}.`])),
      equity_updated_at: unix('When the equity figures were updated'), project_id: 'The project behind the asset (projects.id).',
      project_title: "The project's name.", project_slug: "The project's slug.", project_image_url: "The project's logo URL.",
    },
  },
  {
    name: 'transparency_ratings', group: '/v1 catalog', mirrored: true, description: 'Transparency ratings of assets (`/v1/transparency`).',
    columns: {
      id: 'Rating id.', asset_id: 'The rated asset (assets.id).', summary: 'Summary.', created_at: unix('When the rating was created'),
      updated_at: unix('When it was last updated'), asset_code: "The asset's symbol.", asset_title: "The asset's name.", asset_slug: "The asset's slug.",
      asset_image_url: "The asset's logo URL.", download_url: 'Link to the full report.',
      ...Object.fromEntries(Object.entries(ratings).flatMap(([k, v]) => [[`${k}_rating`, `Score for ${v}.`], [`${k}_max`, `Highest possible score for ${v}.`]])),
    },
  },
  {
    name: 'projects', group: '/v1 catalog', mirrored: true, description: 'Projects (`/v1/projects`).',
    columns: {
      id: 'The `/v1` project id.', title: 'Display name.', tagline: 'One-line pitch.', description: 'Description.', slug: 'URL slug.', url: 'Website.',
      image_url: 'Logo URL.', updated_at: unix('When the project was last updated upstream'), force_searchable: 'Whether the project is searchable regardless of listing.',
      industry: 'Industry.', sector: 'Sector.', group_name: 'Group.', leaderboards: 'Leaderboards the project is on (JSON array).', parent_project_id: 'Parent project (projects.id), if any.',
    },
  },
  { name: 'chains', group: '/v1 catalog', mirrored: true, description: 'Blockchains (`/v1/chains`).', columns: { id: 'Chain id.', ...lifted } },
  ...['sectors', 'groups', 'industries'].map((name): TableSource => ({
    name, group: '/v1 catalog', mirrored: true, description: `The ${name} taxonomy (\`/v1/${name}\`), keyed by slug.`,
    columns: { slug: 'URL slug (the key).', id: 'Numeric id.', title: 'Display name.', updated_at: lifted.updated_at },
  })),
  { name: 'glossary', group: '/v1 catalog', mirrored: true, description: 'Glossary entries (`/v1/glossary`).', columns: { id: 'Entry id.', ...lifted } },
  {
    name: 'market_stats', group: '/v1 catalog', mirrored: true, description: 'Market statistics by day (`/v1/market-stats`); the measures are in raw, typed in v_market_stats_daily.',
    columns: { id: 'Row id.', date: 'The day (YYYY-MM-DD text, as served).' },
  },
  { name: 'metrics', group: '/v1 catalog', mirrored: true, description: 'The metrics catalogue (`/v1/metrics`).', columns: { identifier: 'Metric identifier (the key).', title: 'Display name.', data_type: 'Value type (e.g. percentage).' } },
  {
    name: 'sec_filings', group: '/v1 catalog', mirrored: true, description: 'SEC filings (`/v1/sec/filings`).',
    columns: { accession_number: 'SEC accession number (the key).', company: 'Filer name.', form_type: 'Form (e.g. 8-K).', category: 'Category of the form.', filing_date: 'Day filed (YYYY-MM-DD text).' },
  },
  { name: 'charts', group: '/v1 catalog', mirrored: true, description: 'Charts (`/v1/charts`).', columns: { id: 'Chart id.', title: 'Title.', dashboards: 'Dashboards that show it (JSON).' } },
  {
    name: 'asset_markets', group: '/v1 asset details', mirrored: true, description: 'Per-asset market data (`/v1/assets/{id}/markets`), for the selected assets.',
    columns: {
      ...fanoutAsset, volume_24h: 'Traded volume over 24 hours.', ath: 'All-time high price.', ath_date: unix('When the all-time high was reached'),
      ath_change_percentage: 'Distance from the all-time high, percent.', total_open_interest: 'Total open interest.', total_liquidations: 'Total liquidations.',
      updated_at: unix('When the figures were updated'), asset_code: "The asset's symbol.", asset_slug: "The asset's slug.",
    },
  },
  {
    name: 'asset_ohlcv', group: '/v1 asset details', mirrored: true, description: 'Per-asset open/high/low/close/volume (`/v1/assets/{id}/ohlcv`), for the selected assets.',
    columns: {
      ...fanoutAsset, open: 'Opening price.', high: 'Highest price.', low: 'Lowest price.', close: 'Closing price.', volume: 'Volume.',
      updated_at: unix('When the figures were updated'), asset_code: "The asset's symbol.", asset_slug: "The asset's slug.",
    },
  },
  { name: 'asset_price', group: '/v1 asset details', mirrored: true, description: 'Per-asset price detail (`/v1/assets/{id}/price`), whole in raw.', columns: fanoutAsset },
  { name: 'asset_market_cap', group: '/v1 asset details', mirrored: true, description: 'Per-asset market-cap detail (`/v1/assets/{id}/market-cap`), whole in raw.', columns: fanoutAsset },
  { name: 'asset_supply', group: '/v1 asset details', mirrored: true, description: 'Per-asset supply detail (`/v1/assets/{id}/supply`), whole in raw.', columns: fanoutAsset },
  { name: 'asset_transparency', group: '/v1 asset details', mirrored: true, description: 'Per-asset transparency detail (`/v1/assets/{id}/transparency`).', columns: { ...fanoutAsset, rating_id: 'The rating (transparency_ratings.id).' } },
  {
    name: 'project_chains', group: '/v1 asset details', description: "Chains each project is on (`/v1/projects/{id}/chains`), replaced whole when the project's list changes.",
    columns: { project_id: 'The project (projects.id).', chain_id: 'The chain (chains.id).', raw: 'The record as served (JSON).' },
  },
  {
    name: 'metric_series', group: '/v1 asset details', description: 'Metric values by project and day (`/v1/metrics/{identifier}`), for the selected projects.',
    columns: { metric: 'Metric identifier (metrics.identifier).', project: 'Project slug.', date: 'The day (text, as served).', value: 'The value.', raw: 'The record as served (JSON).' },
  },
  {
    name: 'chart_rows', group: '/v1 asset details', description: "A chart's data rows (`/v1/charts/{id}/data`), replaced whole when the chart changes.",
    columns: { chart_id: 'The chart (charts.id).', row_number: 'Position of the row in the chart’s data.', data: 'The row as served (JSON).' },
  },
];
