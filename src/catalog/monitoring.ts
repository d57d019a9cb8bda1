// Token unlocks and monitoring intelligence (DESIGN streams table). These endpoints do not fit the generic
// list runner (envelopes, children, detail fetches, configured views), so each is a custom stream whose
// runner lives in src/monitoring/. THE table of query parameter names the spec leaves "not shown" is here.
import { syncCategories } from '../monitoring/categories-sync.js';
import { syncEvents } from '../monitoring/events-sync.js';
import { syncTokenUnlocks } from '../monitoring/token-unlocks-sync.js';
import { syncViews, type ViewSyncOptions } from '../monitoring/views-sync.js';
import type { CustomStream } from './types.js';

/**
 * Query parameter names (DESIGN.md "Choices"), keyed by the names a user writes in configuration
 * (`monitoring.events`, `monitoring.tokenUnlocks`). The sandbox keeps its own copy of the same table.
 */
export const MONITORING_PARAMS = Object.freeze({
  /** `/monitoring/v2/events`: the 15 filters in the spec's order, then paging. */
  events: Object.freeze({
    assetIds: 'assetIds',
    eventIds: 'eventIds',
    intelCategories: 'intelCategories',
    intelSubcategories: 'intelSubcategories',
    minimumImportance: 'minimumImportance',
    verified: 'verified',
    actionable: 'actionable',
    governance: 'governance',
    assetSectors: 'assetSectors',
    assetSubsectors: 'assetSubsectors',
    assetPreTge: 'assetPreTge',
    assetEcosystemNetworkIds: 'assetEcosystemNetworkIds',
    start: 'start',
    end: 'end',
    search: 'search',
    limit: 'limit',
    page: 'page',
  }),
  /** `/monitoring/v2/monitoring-views/{id}/events`: only paging and search apply. */
  viewEvents: Object.freeze({ search: 'search', limit: 'limit', page: 'page' }),
  /** `/token-unlocks/v1/assets`: filters are comma-separated; paging is accepted and ignored (so never sent). */
  tokenUnlocks: Object.freeze({ assetIds: 'assetIDs', categories: 'category', sectors: 'sectors', tags: 'tags' }),
});

/** Monitoring lists: page size default 10, capped at 100. */
export const MONITORING_PAGE_SIZE = 100;

export const MONITORING_PATHS = Object.freeze({
  tokenUnlocks: '/token-unlocks/v1/assets',
  categories: '/monitoring/v2/categories',
  events: '/monitoring/v2/events',
  development: (id: string) => `/monitoring/v2/developments/${encodeURIComponent(id)}`,
  view: (idOrSlug: string) => `/monitoring/v2/monitoring-views/${encodeURIComponent(idOrSlug)}`,
  viewEvents: (id: string) => `/monitoring/v2/monitoring-views/${encodeURIComponent(id)}/events`,
});

/** The views stream; `backfill alerts` builds one with its own options under the same name (and lease). */
export function viewsStream(options: ViewSyncOptions = {}): CustomStream {
  return {
    kind: 'custom',
    name: 'monitoring-views',
    description: 'Configured monitoring views (DS_MONITORING_VIEWS) and their matching events into alert_history',
    path: '/monitoring/v2/monitoring-views/{id}',
    table: 'monitoring_views',
    key: ['id'],
    run: (ctx) => syncViews(ctx, options),
  };
}

export const monitoringStreams: readonly CustomStream[] = [
  {
    kind: 'custom',
    name: 'token-unlocks',
    description: 'Assets with token unlock coverage (the whole covered set each run; unseen → soft-deleted)',
    path: MONITORING_PATHS.tokenUnlocks,
    table: 'token_unlock_assets',
    key: ['id'],
    run: (ctx) => syncTokenUnlocks(ctx),
  },
  {
    kind: 'custom',
    name: 'monitoring-categories',
    description: 'The monitoring category taxonomy: categories and their subcategories',
    path: MONITORING_PATHS.categories,
    table: 'monitoring_categories',
    key: ['slug'],
    run: (ctx) => syncCategories(ctx),
  },
  {
    kind: 'custom',
    name: 'monitoring-events',
    description: 'Monitoring events with their assets, categories and developments (details fetched when new or changed)',
    path: MONITORING_PATHS.events,
    table: 'monitoring_events',
    key: ['id'],
    run: (ctx) => syncEvents(ctx),
  },
  viewsStream(),
];
