// One pass over a list stream: page by page, each page and the stream's checkpoint committed in one
// transaction, so an interrupted run resumes at the next page. After a complete pass (from page 1, no
// date window) the rows no longer served are soft-deleted.
import type { ListStream, Query } from '../catalog/types.js';
import { DsMirrorError } from '../errors.js';
import type { Row } from '../store/types.js';
import { addWrites, type StreamContext, type SyncSettings } from './context.js';
import { pages } from './pager.js';
import { windowStart } from './date-window.js';
import { type FetchedPage, type Written, fetchListPage, forgetPagesAfter, openListPage, rowsLastSeen, savePageHash, writeRecords } from './list-page.js';

interface ListCheckpoint {
  pass: string;
  variant: number;
  page: number;
  windowStart: string | null;
}

const CHECKPOINT_EVERY = 25;
const ROWS_IN_FLIGHT = 2000;
const SINGLE = [{ name: '', query: {} as Query, scope: {} as Row }];

/** Pages of a list in flight at once: lists with large pages (projects, chains: 10,000 records) keep fewer, for memory. */
export function pageWindow(stream: ListStream, settings: Pick<SyncSettings, 'pageWindow'>): number {
  return Math.max(1, Math.min(settings.pageWindow, Math.floor(ROWS_IN_FLIGHT / stream.pageSize)));
}

export async function syncList(ctx: StreamContext, stream: ListStream): Promise<void> {
  const { store, stats } = ctx;
  const saved = ctx.settings.mode === 'full' ? null : ((await store.getState(stream.name))?.checkpoint as ListCheckpoint | null);
  const variants = stream.variants ?? SINGLE;
  const pass = saved?.pass ?? ctx.now();
  const start = saved ? saved.windowStart : await windowStart(store, ctx.settings, stream);
  if (saved) ctx.logger.info({ stream: stream.name, variant: saved.variant, page: saved.page }, 'resuming from checkpoint');
  // Rows each variant held last time (unknown under a date window): the pager's horizon and the bar's total.
  const lastSeen = await Promise.all(variants.map((variant) => (start === null ? rowsLastSeen(store, stream.name, variant.name) : 0)));
  const expected = lastSeen.reduce((a, b) => a + b, 0);
  if (expected > 0) ctx.progress.start(stream.name, expected);

  for (let v = saved?.variant ?? 0; v < variants.length; v++) {
    const variant = variants[v];
    const startPage = saved && saved.variant === v ? saved.page : 1;
    const seen = new Set<string>();
    let previousFirstKey: string | undefined;
    // A service that ignored `page` would serve page 1 forever: stop instead of looping (Singer's rule).
    const checkFirstKey = (page: number, first: string | undefined) => {
      if (first !== undefined && first === previousFirstKey) {
        throw new DsMirrorError('DS_PAGING_LOOP', `${stream.path} served the records of page ${page - 1} again on page ${page}: paging is ignored, stopping`);
      }
      previousFirstKey = first;
    };
    let lastPage = startPage - 1;
    let skippedSinceCheckpoint = 0;
    const fetchPage = (page: number) => {
      const query: Query = { ...stream.query, ...variant.query, page, limit: stream.pageSize };
      if (start !== null && stream.window) query[stream.window.startParam] = start;
      return fetchListPage(ctx, stream, page, query);
    };
    const expectedRows = lastSeen[v];

    const window = pageWindow(stream, ctx.settings);
    const openPage = (fetched: FetchedPage) => openListPage(ctx, stream, variant.name, fetched);
    for await (const { fetched: page, last } of pages({ fetchPage, openPage, pageSize: stream.pageSize, startPage, expectedRows, window })) {
      lastPage = page.page;
      if (page.keys) checkFirstKey(page.page, page.keys[0]);
      const done = last && v === variants.length - 1;
      const checkpoint: ListCheckpoint | null = done
        ? null
        : { pass, variant: last ? v + 1 : v, page: last ? 1 : page.page + 1, windowStart: start };
      const now = ctx.now();
      // An unchanged page writes nothing; its checkpoint is saved with the next write, or every
      // CHECKPOINT_EVERY unchanged pages, so a resume re-reads at most that many cheap pages.
      if (!page.records) skippedSinceCheckpoint++;
      const saveNow = page.records !== null || done || ctx.signal.aborted || skippedSinceCheckpoint >= CHECKPOINT_EVERY;
      const unchanged: Written = { keys: page.keys ?? [], rejected: 0, counts: { inserted: 0, updated: 0, unchanged: page.count } };
      const { keys, rejected, counts } = !saveNow ? unchanged : await store.transaction(async (tx) => {
        skippedSinceCheckpoint = 0;
        if (!page.records) {
          await tx.saveCheckpoint(stream.name, checkpoint);
          return unchanged;
        }
        const written = await writeRecords(tx, stream, page.records, now, (first) => checkFirstKey(page.page, first));
        await savePageHash(tx, stream.name, variant.name, page, written.keys, now);
        await tx.saveCheckpoint(stream.name, checkpoint);
        return written;
      });
      for (const k of keys) seen.add(k);
      stats.fetched += page.count;
      stats.errors += rejected;
      addWrites(stats, counts);
      ctx.progress.advance(stream.name, stats);
      if (ctx.signal.aborted && !done) {
        stats.outcome = 'stopped';
        return;
      }
    }
    await forgetPagesAfter(store, stream.name, variant.name, lastPage);

    if (stream.detectDeletes && start === null && startPage === 1) {
      stats.deleted += await store.softDeleteMissing(stream.table, stream.key, seen, variant.scope, ctx.now());
    } else if (stream.detectDeletes && start === null) {
      ctx.logger.info({ stream: stream.name }, 'pass resumed from a checkpoint: deletions are detected by the next complete pass');
    }
  }
}
