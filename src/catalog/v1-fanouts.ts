// Per-item endpoints under a mirrored list: fetched for a configured selection of parents only
// (every asset is 133,000 requests on the real service), so each is opt-in.
import { same, unixTimes } from './mapping.js';
import { pageNumber } from './paginator.js';
import type { ColumnMap, FanoutStream } from './types.js';

const byRank = { table: 'assets', key: 'id', idOrSlug: 'slug', orderBy: 'market_cap_rank' };

/** One record per asset from `/v1/assets/{idOrSlug}/<sub>`. */
function assetDetail(name: string, sub: string, table: string, columns: ColumnMap, description: string): FanoutStream {
  return {
    kind: 'fanout',
    name,
    description,
    parent: byRank,
    path: `/v1/assets/{idOrSlug}/${sub}`,
    table,
    key: ['asset_id'],
    shape: 'record',
    mapping: 'record',
    columns,
    optIn: true,
  };
}

const OHLCV = ['open', 'high', 'low', 'close', 'volume', 'updated_at', 'asset_code', 'asset_slug'];

export const assetFanouts: readonly FanoutStream[] = [
  assetDetail(
    'asset-markets',
    'markets',
    'asset_markets',
    {
      ...same([
        'volume_24h',
        'ath',
        'ath_date',
        'ath_change_percentage',
        'total_open_interest',
        'total_liquidations',
        'updated_at',
        'asset_code',
        'asset_slug',
      ]),
      ...unixTimes({ ath_date: 'ath_date', updated_at: 'updated_at' }),
    },
    'Market details of selected assets (volume, ATH, open interest, liquidations)',
  ),
  assetDetail(
    'asset-ohlcv',
    'ohlcv',
    'asset_ohlcv',
    { ...same(OHLCV), ...unixTimes({ updated_at: 'updated_at' }) },
    'Last 24 h OHLCV of selected assets',
  ),
  assetDetail('asset-price', 'price', 'asset_price', {}, 'Price detail records of selected assets (raw)'),
  assetDetail('asset-market-cap', 'market-cap', 'asset_market_cap', {}, 'Market-cap detail records (raw)'),
  assetDetail('asset-supply', 'supply', 'asset_supply', {}, 'Supply detail records of selected assets (raw)'),
  assetDetail('asset-transparency', 'transparency', 'asset_transparency', { rating_id: 'id' }, 'Transparency rating of selected assets'),
];

export const projectChains: FanoutStream = {
  kind: 'fanout',
  name: 'project-chains',
  description: 'Chains of selected projects',
  parent: { table: 'projects', key: 'id', idOrSlug: 'slug' },
  path: '/v1/projects/{idOrSlug}/chains',
  table: 'project_chains',
  key: ['project_id', 'chain_id'],
  shape: 'rows',
  mapping: 'linked-ids',
  optIn: true,
};

export const metricSeries: FanoutStream = {
  kind: 'fanout',
  name: 'metric-series',
  description: 'Daily series of selected metrics for the configured projects',
  parent: { table: 'metrics', key: 'identifier', idOrSlug: 'identifier' },
  path: '/v1/metrics/{idOrSlug}',
  settingsQuery: { project: 'metricProjects' },
  table: 'metric_series',
  key: ['metric', 'project', 'date'],
  shape: 'rows',
  mapping: 'series-by-project',
  requested: { column: 'project', flag: '--metric-projects (metricProjects)', setting: 'metricProjects' },
  optIn: true,
};

export const chartRows: FanoutStream = {
  kind: 'fanout',
  name: 'chart-rows',
  description: 'Data rows of selected charts, replaced atomically per chart',
  parent: { table: 'charts', key: 'id', idOrSlug: 'id' },
  path: '/v1/charts/{idOrSlug}/data',
  table: 'chart_rows',
  key: ['chart_id', 'row_number'],
  shape: 'rows',
  paginator: pageNumber(100_000),
  mapping: 'numbered-rows',
  optIn: true,
};

export const v1Fanouts: readonly FanoutStream[] = [...assetFanouts, projectChains, metricSeries, chartRows];
