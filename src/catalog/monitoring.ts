// Token unlocks and monitoring intelligence: their paths, and their streams as catalog entries. Token
// unlocks and the category taxonomy are lists the generic runner reads (one request each); events (with
// their normalized children and the development-detail backlog) and views (configured ids, matches into
// alert_history) name the hand-written runner in src/sync/monitoring/ that runs them.
import { isoTimeOf } from './mapping.js';
import { pageNumber } from './paginator.js';
import { RUNNERS } from './runner-names.js';
import type { ColumnMap, CustomStream, ListStream, ViewPassOptions } from './types.js';

export { MONITORING_PARAMS, type MonitoringParams } from './query-params.js';

/** Monitoring lists: `page`/`limit`, the size 10 by default and capped at 100. */
export const monitoringPaginator = pageNumber(100);

export const MONITORING_PATHS = Object.freeze({
  tokenUnlocks: '/token-unlocks/v1/assets',
  categories: '/monitoring/v2/categories',
  events: '/monitoring/v2/events',
  development: (id: string) => `/monitoring/v2/developments/${encodeURIComponent(id)}`,
  view: (idOrSlug: string) => `/monitoring/v2/monitoring-views/${encodeURIComponent(idOrSlug)}`,
  viewEvents: (id: string) => `/monitoring/v2/monitoring-views/${encodeURIComponent(id)}/events`,
});

/** The whole covered set in one response; removals are scoped to what the configured filters cover. */
export const tokenUnlocks: ListStream = {
  kind: 'list',
  name: 'token-unlocks',
  published: { rows: 450 },
  versionsFromRaw: true,
  description: 'Assets with token unlock coverage (the whole covered set each run; unseen → soft-deleted)',
  path: MONITORING_PATHS.tokenUnlocks,
  filters: {
    family: 'tokenUnlocks',
    covers: {
      assetIds: { column: 'id' },
      categories: { column: 'category' },
      sectors: { column: 'sector' },
      tags: { column: 'tags', list: true },
    },
  },
  paginator: { type: 'single' },
  records: 'data',
  table: 'token_unlock_assets',
  key: ['id'],
  columns: {
    id: 'id',
    serial_id: 'serialId',
    symbol: 'symbol',
    name: 'name',
    slug: 'slug',
    genesis_date: isoTimeOf('genesisDate'),
    projected_end_date: isoTimeOf('projectedEndDate'),
    category: 'category',
    sector: 'sector',
    tags: 'tags',
    other_info: 'otherInfo',
  },
  required: ['id'],
  detectDeletes: true,
};

const CATEGORY_COLUMNS: ColumnMap = { slug: 'slug', name: 'name', description: 'description' };

/** The full taxonomy in one response: categories, and their subcategories keyed by (category, slug). */
export const categories: ListStream = {
  kind: 'list',
  name: 'monitoring-categories',
  description: 'The monitoring category taxonomy: categories and their subcategories',
  path: MONITORING_PATHS.categories,
  paginator: { type: 'single' },
  records: 'data',
  table: 'monitoring_categories',
  key: ['slug'],
  columns: CATEGORY_COLUMNS,
  required: ['slug'],
  detectDeletes: true,
  child: {
    table: 'monitoring_subcategories',
    records: 'subcategories',
    parentColumns: { category_slug: 'slug' },
    key: ['category_slug', 'slug'],
    columns: CATEGORY_COLUMNS,
    required: ['slug'],
  },
};

/** The views stream; `backfill alerts` builds one with its own options under the same name (and lease). */
export function viewsStream(options: ViewPassOptions = {}): CustomStream {
  return {
    kind: 'custom',
    name: 'monitoring-views',
    description: 'Configured monitoring views (DS_MONITORING_VIEWS) and their matching events into alert_history',
    path: '/monitoring/v2/monitoring-views/{id}',
    table: 'monitoring_views',
    key: ['id'],
    paginator: monitoringPaginator,
    detectDeletes: false,
    runner: RUNNERS.views,
    views: options,
  };
}

/**
 * The real service's developments, for the events runner's plan (src/sync/monitoring/events-plan.ts): the
 * details a first sync's default backlog covers (high importance, last 30 days), and new ones a day with
 * the share that backlog covers.
 */
export const PUBLISHED_DEVELOPMENTS = Object.freeze({ detailsInScope: 1_073, perDay: 300, highImportanceShare: 0.1 });

export const events: CustomStream = {
  kind: 'custom',
  name: 'monitoring-events',
  // 392 events started in the last 7 days (the default lookback of an incremental run).
  published: { rows: 20_000, rowsPerDay: 392 / 7 },
  versionsFromRaw: true,
  description: 'Monitoring events with their assets, categories and developments (details fetched when new or changed)',
  path: MONITORING_PATHS.events,
  table: 'monitoring_events',
  key: ['id'],
  paginator: monitoringPaginator,
  detectDeletes: true,
  runner: RUNNERS.events,
};

export const monitoringStreams: readonly (ListStream | CustomStream)[] = [tokenUnlocks, categories, events, viewsStream()];
