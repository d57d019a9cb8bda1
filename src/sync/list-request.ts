// A list's requests as its catalog entry declares them: the query of each page (fixed parameters, the
// configured filters, the variant's, the paginator's, the date window's bound), and how many pages of
// it a run keeps in flight.
import { configuredQuery } from '../catalog/configured-filters.js';
import type { ListStream, Query } from '../catalog/types.js';
import type { SyncSettings } from './context.js';

type Variant = NonNullable<ListStream['variants']>[number];

/** Most records of one list fetched ahead at once: lists of 10,000-record pages keep fewer pages, for memory. */
const MAX_ROWS_FETCHED_AHEAD = 2000;
/** Most page transactions of one list (variant) writing at once... */
const MAX_PAGE_WRITES_AT_ONCE = 3;
/** ...and most records in them: a few pages of 100, one of 1,000 or more (memory). */
const MAX_ROWS_BEING_WRITTEN = 500;

/** The page size a list asks for (a single-request list: unbounded) and its last page, if it has one. */
export function listPaging(stream: ListStream, settings: SyncSettings): { pageSize: number; lastPage?: number } {
  if (stream.paginator.type === 'single') return { pageSize: Number.POSITIVE_INFINITY, lastPage: 1 };
  const { pageSize } = stream.paginator;
  if (!stream.maxRecords) return { pageSize };
  const records = stream.maxRecords(settings);
  return { pageSize: Math.min(pageSize, records), lastPage: Math.ceil(records / pageSize) };
}

/** Pages of a list in flight at once: lists with large pages (projects, chains: 10,000 records) keep fewer, for memory. */
export function pageWindow(stream: ListStream, settings: Pick<SyncSettings, 'pageWindow'>): number {
  return Math.max(1, Math.min(settings.pageWindow, Math.floor(MAX_ROWS_FETCHED_AHEAD / pageSizeOf(stream))));
}

/**
 * Requests a first read of a list (variant) may make past its end: read ahead while its length is
 * unknown, the pager keeps its window full (pager.ts). None for a list of one page or a fixed last page.
 */
export function readAheadExtra(stream: ListStream, settings: SyncSettings): number {
  const { lastPage } = listPaging(stream, settings);
  return lastPage === undefined ? pageWindow(stream, settings) - 1 : 0;
}

/** Page transactions of one list (variant) in flight at once. */
export function writeWindow(stream: ListStream): number {
  return Math.max(1, Math.min(MAX_PAGE_WRITES_AT_ONCE, Math.floor(MAX_ROWS_BEING_WRITTEN / pageSizeOf(stream))));
}

function pageSizeOf(stream: ListStream): number {
  return stream.paginator.type === 'page-number' ? stream.paginator.pageSize : Number.POSITIVE_INFINITY;
}

/** The query every page of a list's run shares; a configured filter with an unknown name throws here, before any request. */
export function listQuery(stream: ListStream, settings: SyncSettings, variant: Variant | undefined): Query {
  const query: Query = { ...stream.query };
  if (stream.filters) {
    const { family } = stream.filters;
    Object.assign(query, configuredQuery(family, settings.monitoring[family], settings.monitoring.params));
  }
  return { ...query, ...variant?.query };
}

/** One page's query: the shared one, the paginator's parameters, the date window's lower bound. */
export function pageQuery(stream: ListStream, settings: SyncSettings, shared: Query, page: number, windowStart: string | null): Query {
  const { paginator } = stream;
  const query: Query =
    paginator.type === 'single'
      ? { ...shared }
      : { ...shared, [paginator.pageParam]: page, [paginator.limitParam]: listPaging(stream, settings).pageSize };
  if (windowStart !== null && stream.window) query[stream.window.startParam] = windowStart;
  return query;
}
