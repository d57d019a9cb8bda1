// Pages of a monitoring list (`{error, data, metadata}`) through the paginator its catalog entry names,
// under the parameter names the configuration may override. Like every list, paging ends at the first
// short page (metadata is informative only); pages the mirror expects to exist are fetched a few at a
// time. Requests are counted by the client, into the stream's stats.
import type { PageNumberSpec, Query } from '../../catalog/types.js';
import { dataArray } from '../../client/index.js';
import { PageNumberPaginator } from '../../paging/paginator.js';
import type { StreamContext } from '../context.js';
import { pages } from '../../paging/pager.js';
import { contentHash } from '../../content-hash.js';

/** A page of a monitoring list, in order; `last` when it ends the list. */
export interface MonitoringPage {
  page: number;
  records: readonly unknown[];
  last: boolean;
  /** The count of the whole list the page reports (`metadata.totalRows`), as served. */
  total: unknown;
}

export interface MonitoringListOptions {
  path: string;
  /** The stream's paginator in the catalog (page-number at the largest page size). */
  paginator: PageNumberSpec;
  query: Query;
  startPage?: number;
  /** Rows the list held last time (0 when unknown): sizes the concurrent window. */
  expectedRows?: number;
  /** Names of the paging parameters as configured (the events list's by default). */
  names?: { limit: string; page: string };
}

export async function* monitoringPages(ctx: StreamContext, opts: MonitoringListOptions): AsyncGenerator<MonitoringPage> {
  const names = opts.names ?? ctx.settings.monitoring.params.events;
  const expectedRows = opts.expectedRows ?? 0;
  const paginator = new PageNumberPaginator(
    { ...opts.paginator, pageParam: names.page, limitParam: names.limit },
    { path: opts.path, limits: { expectedRows, ceiling: ctx.settings.maxPagesPerList } },
  );
  const fetchPage = async (page: number, abandoned: AbortSignal) => {
    const body = await ctx.client.get<{ data: unknown[]; metadata?: { totalRows?: unknown } }>(
      opts.path,
      { ...opts.query, ...paginator.params(page) },
      { check: dataArray, signal: abandoned },
    );
    const records: readonly unknown[] = body.data;
    // What the guard remembers a page by: its first record (a service that ignores `page` serves it again).
    const signatures = [records.length > 0 ? contentHash(JSON.stringify(records[0]) ?? '') : undefined];
    return { count: records.length, records, total: body.metadata?.totalRows, signatures };
  };
  for await (const { page, fetched, last } of pages({
    paginator,
    fetchPage,
    startPage: opts.startPage ?? 1,
    expectedRows,
    window: ctx.settings.pageWindow,
  })) {
    yield { page, records: fetched.records, last, total: fetched.total };
  }
}
