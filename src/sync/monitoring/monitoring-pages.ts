// Pages of a monitoring list (`{error, data, metadata}`) at the largest page size. Like every list, paging
// ends at the first short page (metadata is informative only); pages the mirror expects to exist are
// fetched a few at a time. Requests are counted by the client, into the stream's stats.
import { MONITORING_PAGE_SIZE } from '../../catalog/monitoring.js';
import type { Query } from '../../catalog/types.js';
import { dataArray } from '../../client/index.js';
import type { StreamContext } from '../context.js';
import { pages } from '../pager.js';
import { pageGuardFor } from '../page-guard.js';
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
  query: Query;
  startPage?: number;
  /** Rows the list held last time (0 when unknown): sizes the concurrent window. */
  expectedRows?: number;
  /** Names of the paging parameters (the events list's by default). */
  paging?: { limit: string; page: string };
}

export async function* monitoringPages(ctx: StreamContext, opts: MonitoringListOptions): AsyncGenerator<MonitoringPage> {
  const { limit, page: pageParam } = opts.paging ?? ctx.settings.monitoring.params.events;
  const fetchPage = async (
    page: number,
    abandoned: AbortSignal,
  ): Promise<{ count: number; records: readonly unknown[]; total: unknown }> => {
    const query = { ...opts.query, [pageParam]: page, [limit]: MONITORING_PAGE_SIZE };
    const body = await ctx.client.get<{ data: unknown[]; metadata?: { totalRows?: unknown } }>(opts.path, query, {
      check: dataArray,
      signal: abandoned,
    });
    return { count: body.data.length, records: body.data, total: body.metadata?.totalRows };
  };
  const expectedRows = opts.expectedRows ?? 0;
  const guard = pageGuardFor(opts.path, expectedRows, MONITORING_PAGE_SIZE, ctx.settings.maxPagesPerList);
  for await (const { page, fetched, last } of pages({
    fetchPage,
    pageSize: MONITORING_PAGE_SIZE,
    startPage: opts.startPage ?? 1,
    expectedRows,
    window: ctx.settings.pageWindow,
  })) {
    // A service that ignored `page` (or cycled through pages) would be followed forever: stop instead.
    guard.check(page, [fetched.records.length > 0 ? contentHash(JSON.stringify(fetched.records[0]) ?? '') : undefined]);
    yield { page, records: fetched.records, last, total: fetched.total };
  }
}
