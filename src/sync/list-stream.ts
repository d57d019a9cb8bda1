// One pass over a list stream: page by page, each page and the stream's checkpoint committed in one
// transaction, so an interrupted run resumes at the next page. The variants of a list (the asset
// classes) are paged at the same time, each with its own place in the one checkpoint. After a variant's
// complete pass (from page 1, no date window) its rows no longer served are soft-deleted.
import type { ListStream, Query } from '../catalog/types.js';
import { DsMirrorError } from '../errors.js';
import type { Row } from '../store/types.js';
import { addWrites, type StreamContext, type SyncSettings } from './context.js';
import { PageProgress } from './page-progress.js';
import { pages } from './pager.js';
import { DEFAULT_MAX_PAGES_PER_LIST, limitReason, PageGuard, pageLimit } from './page-guard.js';
import { windowStart } from './date-window.js';
import { type FetchedPage, type Written, fetchListPage, forgetPagesAfter, openListPage, rowsLastSeen, savePageHash, writeRecords } from './list-page.js';

type Variant = NonNullable<ListStream['variants']>[number];

interface ListCheckpoint {
  pass: string;
  windowStart: string | null;
  /** Per variant, the next page to read; null once the variant is complete. */
  next: Record<string, number | null>;
}

const CHECKPOINT_EVERY = 25;
const ROWS_IN_FLIGHT = 2000;
const WRITES_IN_FLIGHT = 3;
const ROWS_WRITING = 500;
const SINGLE: readonly Variant[] = [{ name: '', query: {} as Query, scope: {} as Row }];

/** Page transactions of one list (variant) in flight at once: a few pages of 100, one of 1,000 or more (memory). */
function writeWindow(stream: ListStream): number {
  return Math.max(1, Math.min(WRITES_IN_FLIGHT, Math.floor(ROWS_WRITING / stream.pageSize)));
}

/** Pages of a list in flight at once: lists with large pages (projects, chains: 10,000 records) keep fewer, for memory. */
export function pageWindow(stream: ListStream, settings: Pick<SyncSettings, 'pageWindow'>): number {
  return Math.max(1, Math.min(settings.pageWindow, Math.floor(ROWS_IN_FLIGHT / stream.pageSize)));
}

/** The page size a list asks for and, for a partial list, its last page. */
export function listPaging(stream: ListStream, settings: SyncSettings): { pageSize: number; lastPage?: number } {
  if (!stream.maxRecords) return { pageSize: stream.pageSize };
  const records = stream.maxRecords(settings);
  return { pageSize: Math.min(stream.pageSize, records), lastPage: Math.ceil(records / stream.pageSize) };
}

export async function syncList(ctx: StreamContext, stream: ListStream): Promise<void> {
  const { store } = ctx;
  const variants = stream.variants ?? SINGLE;
  const saved = ctx.settings.mode === 'full' ? null : (((await store.getState(stream.name))?.checkpoint ?? null) as ListCheckpoint | null);
  const start = saved ? saved.windowStart : await windowStart(store, ctx.settings, stream);
  const pass = saved?.pass ?? ctx.now();
  if (saved) ctx.logger.info({ next: saved.next }, 'resuming from checkpoint');
  // Where each variant stands; every page's checkpoint is built from all of them.
  const places = new Map(variants.map((v) => {
    const next = saved?.next[v.name];
    return [v.name, next === null ? PageProgress.complete() : new PageProgress(next ?? 1)];
  }));
  // A null checkpoint is built only once every other page of every variant has committed, so no
  // later commit can overwrite it; otherwise the end of the run saves null itself.
  let cleared = false;
  const checkpoint = (variant: string, page: number): ListCheckpoint | null => {
    const next = Object.fromEntries([...places].map(([name, p]) => [name, name === variant ? p.placeWith(page) : p.placeWith()]));
    cleared = Object.values(next).every((p) => p === null);
    return cleared ? null : { pass, windowStart: start, next };
  };
  // Rows each variant held last time (unknown under a date window): the pager's horizon and the bar's total.
  const lastSeen = await Promise.all(variants.map((variant) => (start === null ? rowsLastSeen(store, stream.name, variant.name) : 0)));
  const expected = lastSeen.reduce((a, b) => a + b, 0);
  if (expected > 0) ctx.progress.start(stream.name, expected);

  // One variant failing stops the others at their next page, before the stream reports the failure.
  const failed = new AbortController();
  const variantCtx: StreamContext = { ...ctx, signal: AbortSignal.any([ctx.signal, failed.signal]) };
  const outcomes = await Promise.allSettled(variants.map(async (variant, v) => {
    const progress = places.get(variant.name)!;
    if (progress.placeWith() === null) return;
    try {
      await syncVariant(variantCtx, stream, variant, { progress, start, expectedRows: lastSeen[v], checkpoint: (page) => checkpoint(variant.name, page) });
    } catch (error) {
      failed.abort();
      throw error;
    }
  }));
  const failure = outcomes.find((o) => o.status === 'rejected');
  if (failure) throw failure.reason;
  if ([...places.values()].some((p) => p.placeWith() !== null)) {
    ctx.stats.outcome = 'stopped';
    return;
  }
  // Variants that finished at the same moment may each have saved the other's older place.
  if (!cleared) await store.transaction((tx) => tx.saveCheckpoint(stream.name, null));
}

interface VariantRun {
  /** The variant's place: read from the checkpoint, advanced as its pages commit. */
  progress: PageProgress;
  /** The window's start, or null for a complete pass. */
  start: string | null;
  expectedRows: number;
  /** The stream's checkpoint as it will stand once `page` commits. */
  checkpoint: (page: number) => ListCheckpoint | null;
}

async function syncVariant(ctx: StreamContext, stream: ListStream, variant: Variant, run: VariantRun): Promise<void> {
  const { store, stats } = ctx;
  const { progress, start } = run;
  const startPage = progress.placeWith() ?? 1;
  const seen = new Set<string>();
  const ceiling = ctx.settings.maxPagesPerList ?? DEFAULT_MAX_PAGES_PER_LIST;
  const maxPages = pageLimit(run.expectedRows, stream.pageSize, ceiling);
  const guard = new PageGuard(stream.path, maxPages, limitReason(run.expectedRows, maxPages, ceiling));
  let lastPage = startPage - 1;
  let skippedSinceCheckpoint = 0;
  const { pageSize, lastPage: endPage } = listPaging(stream, ctx.settings);
  const fetchPage = (page: number) => {
    const query: Query = { ...stream.query, ...variant.query, page, limit: pageSize };
    if (start !== null && stream.window) query[stream.window.startParam] = start;
    return fetchListPage(ctx, stream, page, query);
  };
  const openPage = (fetched: FetchedPage) => openListPage(ctx, stream, variant.name, fetched);
  const tally = ({ keys, rejected, counts }: Written, count: number) => {
    for (const k of keys) seen.add(k);
    stats.fetched += count;
    stats.errors += rejected;
    addWrites(stats, counts);
    ctx.progress.advance(stream.name, stats);
  };
  // Page transactions in flight, oldest first: the next pages are mapped while earlier ones commit.
  const writing: Promise<void>[] = [];
  const writesAtOnce = writeWindow(stream);
  try {
    for await (const { fetched: page, last } of pages({ fetchPage, openPage, pageSize, startPage, expectedRows: run.expectedRows, window: pageWindow(stream, ctx.settings), lastPage: endPage })) {
      lastPage = page.page;
      if (last) progress.end(page.page);
      // A service that ignored `page` would serve page 1 forever: stop instead of looping (Singer's rule),
      // also when it cycles through several pages, and stop a list that never ends.
      guard.check(page.page, [page.firstKey === undefined ? undefined : `key:${page.firstKey}`, page.count > 0 ? `body:${page.hash}` : undefined]);
      // An unchanged page writes nothing; its checkpoint is saved with the next write, or every
      // CHECKPOINT_EVERY unchanged pages, so a resume re-reads at most that many cheap pages.
      const unchanged: Written = { keys: page.keys ?? [], rejected: 0, counts: { inserted: 0, updated: 0, unchanged: page.count } };
      if (!page.records && !last && !ctx.signal.aborted && ++skippedSinceCheckpoint < CHECKPOINT_EVERY) {
        progress.markDone(page.page);
        tally(unchanged, page.count);
      } else {
        skippedSinceCheckpoint = 0;
        const { records } = page;
        const now = ctx.now();
        const write = store.transaction(async (tx) => {
          const written = records ? await writeRecords(tx, stream, records, now) : unchanged;
          if (records) await savePageHash(tx, stream.name, variant.name, page, written.keys, now);
          // Built last, so it holds every other page and variant done so far.
          await tx.saveCheckpoint(stream.name, run.checkpoint(page.page));
          return written;
        }).then((written) => {
          progress.markDone(page.page);
          tally(written, page.count);
        });
        write.catch(() => {}); // it fails the variant when awaited, not the process as an unhandled rejection
        writing.push(write);
        if (writing.length >= writesAtOnce) await writing.shift();
      }
      if (ctx.signal.aborted && !last) break;
    }
  } catch (error) {
    await Promise.allSettled(writing); // nothing is left writing once the variant has failed
    throw error;
  }
  const failure = (await Promise.allSettled(writing)).find((o) => o.status === 'rejected');
  if (failure) throw failure.reason;
  if (progress.placeWith() !== null) return; // stopped: the checkpoint holds its place
  await forgetPagesAfter(store, stream.name, variant.name, lastPage);

  if (stream.detectDeletes && start === null && startPage === 1) {
    // Not `+= await`: the variants run at once, and that would add to a total read before the wait.
    const deleted = await store.softDeleteMissing(stream.table, stream.key, seen, variant.scope, ctx.now());
    stats.deleted += deleted;
  } else if (stream.detectDeletes && start === null) {
    ctx.logger.info({ variant: variant.name }, 'pass resumed from a checkpoint: deletions are detected by the next complete pass');
  }
}
