// A list's requests as its catalog entry declares them: the query every page shares (fixed parameters,
// the configured filters, the variant's), the paginator's parameters, the date window's bound; and how
// many pages of it a run keeps in flight.
import { configuredQuery } from '../catalog/configured-filters.js';
import type { ListStream, Query } from '../catalog/types.js';
import type { GuardLimits } from '../paging/page-guard.js';
import { pagesPastTheEnd } from '../paging/pager.js';
import { type Paginator, paginatorFor } from '../paging/paginator.js';
import type { SyncSettings } from './run-settings.js';

export type Variant = NonNullable<ListStream['variants']>[number];

/** Most records of one list fetched ahead at once: lists of 10,000-record pages keep fewer pages, for memory. */
const MAX_ROWS_FETCHED_AHEAD = 2000;

/** One pass's requests over a list (variant): its paginator and each page's query. */
export interface ListRequests {
  readonly paginator: Paginator;
  query(page: number): Query;
}

/**
 * The requests of a pass over the variant, from `windowStart` (null: the whole list). The guard counts on
 * `expectedRows` (0: unknown). A configured filter with an unknown name throws here, before any request.
 */
export function listRequests(
  stream: ListStream,
  settings: SyncSettings,
  variant: Variant | undefined,
  windowStart: string | null,
  expectedRows = 0,
): ListRequests {
  const paginator = listPaginator(stream, settings, { expectedRows, ceiling: settings.maxPagesPerList });
  const shared = sharedQuery(stream, settings, variant);
  const window = windowStart !== null && stream.window ? { [stream.window.startParam]: windowStart } : {};
  return { paginator, query: (page) => ({ ...shared, ...paginator.params(page), ...window }) };
}

/** The list's paginator; a partial list (the top of a ranking) asks for no more than its records, and ends at the page that holds them. */
export function listPaginator(stream: ListStream, settings: SyncSettings, limits: GuardLimits = { expectedRows: 0 }): Paginator {
  const options = { path: stream.path, limits };
  const { paginator, maxRecords } = stream;
  if (paginator.type === 'single' || !maxRecords) return paginatorFor(paginator, options);
  const records = settings[maxRecords.setting] ?? maxRecords.default;
  return paginatorFor(paginator, {
    ...options,
    pageSize: Math.min(paginator.pageSize, records),
    lastPage: Math.ceil(records / paginator.pageSize),
  });
}

/** The query every page of a list's pass shares. */
function sharedQuery(stream: ListStream, settings: SyncSettings, variant: Variant | undefined): Query {
  const query: Query = { ...stream.query };
  if (stream.filters) {
    const { family } = stream.filters;
    Object.assign(query, configuredQuery(family, settings.monitoring[family], settings.monitoring.params));
  }
  return { ...query, ...variant?.query };
}

/** Pages of a list in flight at once: lists with large pages (projects, chains: 10,000 records) keep fewer, for memory. */
export function pageWindow(stream: ListStream, settings: Pick<SyncSettings, 'pageWindow'>): number {
  return Math.max(1, Math.min(settings.pageWindow, Math.floor(MAX_ROWS_FETCHED_AHEAD / catalogPageSize(stream))));
}

/**
 * Requests a first read of a list (variant) may make past its end: read ahead while its length is
 * unknown, the pager keeps its window full (src/paging/pager.ts). None for a list of one page or a fixed last page.
 */
export function readAheadExtra(stream: ListStream, settings: SyncSettings): number {
  return pagesPastTheEnd(listPaginator(stream, settings), pageWindow(stream, settings));
}

/** The page size the catalog gives (a list in one response: unbounded). */
export function catalogPageSize(stream: ListStream): number {
  return stream.paginator.type === 'page-number' ? stream.paginator.pageSize : Number.POSITIVE_INFINITY;
}
