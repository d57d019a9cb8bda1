// Token unlocks and monitoring intelligence. These endpoints do not fit the generic
// list runner (envelopes, children, detail fetches, configured views), so each is a custom stream whose
// runner lives in src/monitoring/. THE table of query parameter names the spec leaves "not shown" is here.
import { syncCategories } from '../monitoring/categories-sync.js';
import { syncEvents } from '../monitoring/events-sync.js';
import { syncTokenUnlocks } from '../monitoring/token-unlocks-sync.js';
import { syncViews, type ViewSyncOptions } from '../monitoring/views-sync.js';
import type { CustomStream } from './types.js';

export { MONITORING_PARAMS, type MonitoringParams } from './query-params.js';

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
