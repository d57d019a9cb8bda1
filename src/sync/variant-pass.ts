// One variant of a list (an asset class; a list without variants has one) read page by page: pages are
// fetched ahead, each changed page and the stream's checkpoint are written in one transaction (a few at
// once), an unchanged page writes nothing. After a complete pass (from page 1, no date window) the rows
// no longer served are soft-deleted.
import type { ListStream } from '../catalog/types.js';
import type { Row } from '../store/types.js';
import { addWrites, type StreamContext } from './context.js';
import { keepUncovered } from './filter-coverage.js';
import type { ListCheckpoint } from './list-checkpoint.js';
import { type FetchedPage, type ListPage, fetchListPage, forgetPagesAfter, openListPage, savePageHash, WrittenPages } from './list-page.js';
import { catalogPageSize, type ListRequests, listRequests, pageWindow, type Variant } from '../requests/list-requests.js';
import type { PageProgress } from './page-progress.js';
import { pages } from '../paging/pager.js';
import { nothingWritten, writeRecords, type Written } from './write-records.js';
import { endInDoubt, firstPageMoved, PassKeys } from './deletion-evidence.js';
import { judgeDeletions } from './deletion-gate.js';
import { arrivalsWaiting, type KeyedRows, LiveKeys, settleArrivals } from './renamed-keys.js';
import type { PassShape } from './shape/pass-shape.js';

/** Unchanged pages read before their place is saved anyway: a resume re-reads at most this many cheap pages. */
const CHECKPOINT_EVERY = 25;
/**
 * Records of consecutive changed pages written in one transaction: each commit rewrites every table and
 * index page it touched (a first sync wrote 4.6x the file's size), so five 100-record pages share one.
 * A resume re-reads at most these pages; each page's rows, hash and checkpoint still commit together.
 */
const GROUP_ROWS = 500;
/** Most page-group transactions of one variant in flight at once: a failing store is heard of within ten pages. */
const MAX_WRITES_AT_ONCE = 2;
/** ...and one for pages of 500 records or more (memory). */
const MAX_ROWS_BEING_WRITTEN = 500;

export interface VariantRun {
  /** The variant's place: read from the checkpoint, advanced as its pages commit. */
  progress: PageProgress;
  /** The window's start, or null for a complete pass. */
  start: string | null;
  expectedRows: number;
  /** The mirror never read this list: pages are read ahead past each full one (pager.ts). */
  readAhead: boolean;
  /** Rows the page limit counts on (0: the list's length is unknown, the ceiling applies). */
  guardRows: number;
  /** The stream's checkpoint as it will stand once `pages` commit. */
  checkpointAfter: (pages: readonly number[]) => ListCheckpoint | null;
  /** The pass's observer of the service's shape (shared by the variants). */
  shape?: PassShape;
}

export async function syncVariant(ctx: StreamContext, stream: ListStream, variant: Variant, run: VariantRun): Promise<void> {
  await new VariantPass(ctx, stream, variant, run).sync();
}

class VariantPass {
  private readonly startPage: number;
  /** The pass's paginator (with its guard) and each page's query. */
  private readonly requests: ListRequests;
  /** Keys of every row served in this pass, and of the child rows: what deletion detection keeps. */
  private readonly keys = new PassKeys();
  /** Keys page 1 held when read: read again before deleting, it shows whether the list moved. */
  private firstPageKeys: string[] | null = null;
  private readonly childSeen = new Set<string>();
  /** Page transactions in flight, oldest first: the next pages are mapped while earlier ones commit. */
  private readonly writing: Promise<void>[] = [];
  /** Changed pages read but not yet written: consecutive ones share a transaction (GROUP_ROWS). */
  private pending: ListPage[] = [];
  private pendingRows = 0;
  private lastPage: number;
  /** Records of the last page read (the short one that ended the list). */
  private lastCount = 0;
  private unchangedSinceCheckpoint = 0;
  /** The variant's live keys at the pass's start, for a list whose keys can go (renamed-keys.ts). */
  private readonly liveKeys: LiveKeys | undefined;

  constructor(
    private readonly ctx: StreamContext,
    private readonly stream: ListStream,
    private readonly variant: Variant,
    private readonly run: VariantRun,
  ) {
    this.startPage = run.progress.nextToRead() ?? 1;
    this.lastPage = this.startPage - 1;
    this.requests = listRequests(stream, ctx.settings, variant, run.start, run.guardRows);
    this.liveKeys = stream.detectDeletes ? new LiveKeys(ctx.store, this.place(), this.keyed()) : undefined;
  }

  private place(): { stream: string; variant: string } {
    return { stream: this.stream.name, variant: this.variant.name };
  }

  private keyed(): KeyedRows {
    return { table: this.stream.table, key: this.stream.key, scope: this.variant.scope };
  }

  async sync(): Promise<void> {
    try {
      await this.readPages();
    } catch (error) {
      // The pages read before the failure are written still: the next run resumes after them.
      await this.flush().catch(() => {});
      await Promise.allSettled(this.writing); // nothing is left writing once the variant has failed
      throw error;
    }
    const failure = (await Promise.allSettled(this.writing)).find((o) => o.status === 'rejected');
    if (failure) throw failure.reason;
    if (this.run.progress.nextToRead() !== null) return; // stopped: the checkpoint holds its place
    // A doubtful end (a page that lied) keeps the later pages' hashes: the next run's limits count on them.
    const doubtful = await this.detectDeletes();
    if (!doubtful) await forgetPagesAfter(this.ctx.store, this.stream.name, this.variant.name, this.lastPage);
  }

  private async readPages(): Promise<void> {
    const { ctx, stream, variant, requests } = this;
    const { paginator } = requests;
    const fetchPage = (page: number, abandoned: AbortSignal) => fetchListPage(ctx, stream, page, requests.query(page), abandoned);
    const written = await WrittenPages.read(ctx.store, ctx.settings.mode, stream, variant.name);
    const openPage = (fetched: FetchedPage) => this.openWithinBudget(written, fetched, paginator.pageSize);
    for await (const { fetched: page, last } of pages({
      paginator,
      fetchPage,
      openPage,
      startPage: this.startPage,
      expectedRows: this.run.expectedRows,
      readAhead: this.run.readAhead,
      window: pageWindow(stream, ctx.settings),
    })) {
      await this.take(page, last);
      if (ctx.signal.aborted && !last) break;
    }
    await this.flush();
  }

  /**
   * A page's records count against the run's budget from their parse until they are written. Short of room,
   * the pages waiting here are written first: they hold budget that only their write gives back.
   */
  private async openWithinBudget(written: WrittenPages, fetched: FetchedPage, pageSize: number): Promise<ListPage> {
    const { parsed } = this.ctx;
    if (!parsed.tryTake(pageSize)) {
      await this.flush();
      await parsed.take(pageSize, this.ctx.signal);
    }
    const page = await openListPage(this.stream, written, fetched).catch((error: unknown) => {
      parsed.give(pageSize);
      throw error;
    });
    if (!page.records) parsed.give(pageSize); // unchanged: nothing was parsed
    return page;
  }

  /** One page in order (the page loop checked it against paging loops): skipped or written. */
  private async take(page: ListPage, last: boolean): Promise<void> {
    this.lastPage = page.page;
    this.lastCount = page.count;
    if (last) this.run.progress.end(page.page);
    // An unchanged page writes nothing; its checkpoint is saved with the next write, or every
    // CHECKPOINT_EVERY unchanged pages.
    if (!page.records && !last && !this.ctx.signal.aborted && ++this.unchangedSinceCheckpoint < CHECKPOINT_EVERY) {
      this.run.progress.markDone(page.page);
      this.count(nothingWritten(page.keys ?? [], page.count), page);
      return;
    }
    this.unchangedSinceCheckpoint = 0;
    this.pending.push(page);
    this.pendingRows += page.count;
    if (!last && this.pendingRows < GROUP_ROWS) return;
    await this.flush();
  }

  /**
   * The pages waiting, written in one transaction. At most two such writes in flight (one for large
   * pages): a failing store is heard of within ten pages, before the page limit could speak first.
   */
  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const write = this.write(this.pending);
    this.pending = [];
    this.pendingRows = 0;
    write.catch(() => {}); // it fails the variant when awaited, not the process as an unhandled rejection
    this.writing.push(write);
    if (this.writing.length >= writeWindow(this.stream)) await this.writing.shift();
  }

  /** The pages' rows, their hashes and the stream's checkpoint, in one transaction. */
  private async write(pages: readonly ListPage[]): Promise<void> {
    try {
      await this.writeGroup(pages);
    } finally {
      const { pageSize } = this.requests.paginator;
      for (const page of pages) if (page.records) this.ctx.parsed.give(pageSize); // written, or failed: freed either way
    }
  }

  private async writeGroup(pages: readonly ListPage[]): Promise<void> {
    const { ctx, stream, variant } = this;
    const now = ctx.now();
    const written = await ctx.store.transaction(async (tx) => {
      const results: Written[] = [];
      for (const page of pages) {
        const { records } = page;
        const result = records
          ? await writeRecords(tx, stream, records, now, this.run.shape, this.liveKeys)
          : nothingWritten(page.keys ?? [], page.count);
        // A page whose rows were held is read again next time (its bytes would vouch for rows never written).
        if (records && !result.held) await savePageHash(tx, stream.name, variant.name, page, result.keys, now);
        results.push(result);
      }
      // Built last, so it holds every other page and variant done so far.
      await tx.saveCheckpoint(stream.name, this.run.checkpointAfter(pages.map((p) => p.page)));
      return results;
    });
    pages.forEach((page, i) => {
      this.run.progress.markDone(page.page);
      this.count(written[i]!, page);
    });
  }

  /** A page's rows into the stream's stats and the keys deletion detection keeps. */
  private count(written: Written, page: ListPage): void {
    const { stats } = this.ctx;
    for (const k of written.keys) this.keys.add(k);
    if (page.page === 1) this.firstPageKeys = written.keys;
    if (!page.records && this.run.shape) this.run.shape.unparsed += page.count;
    for (const k of written.childKeys) this.childSeen.add(k);
    stats.fetched += page.count + written.childRecords;
    stats.errors += written.rejected;
    if (written.held) stats.heldRows = (stats.heldRows ?? 0) + written.held;
    addWrites(stats, written.counts);
    this.ctx.progress.advance(this.stream.name, stats);
  }

  /** Soft-deletes what a complete pass was not served; true when the list's end was in doubt (nothing deleted). */
  private async detectDeletes(): Promise<boolean> {
    const { ctx, stream, variant } = this;
    if (!stream.detectDeletes || this.run.start !== null) return false;
    if (this.startPage !== 1) {
      ctx.logger.info({ variant: variant.name }, 'pass resumed from a checkpoint: deletions are detected by the next complete pass');
      return false;
    }
    const { seen } = this.keys;
    await keepUncovered(ctx, stream, seen);
    // Keys served under another case wait, not live: they are no row of the list's end.
    const served = seen.size - (await arrivalsWaiting(ctx.store, this.place()));
    const end = await endInDoubt(ctx, stream, variant, { lastPage: this.lastPage, lastCount: this.lastCount, seen: served });
    const verdict = await judgeDeletions(ctx, {
      ...this.place(),
      ...this.keyed(),
      seen,
      doubt: async () => end ?? this.keys.doubt() ?? (await this.firstPageDoubt()),
    });
    if (verdict.notice) {
      ctx.logger.warn({ variant: variant.name, notice: verdict.notice }, 'deletions held back or confirmed');
      ctx.stats.notice = ctx.stats.notice ? `${ctx.stats.notice}; ${verdict.notice}` : verdict.notice;
    }
    ctx.stats.held = (ctx.stats.held ?? 0) + verdict.keep.size;
    const allHeld = verdict.keep.size > 0 && verdict.keep.size === verdict.missing;
    if (!allHeld) {
      // Not `+= await`: the variants run at once, and that would add to a total read before the wait.
      const deleted =
        verdict.missing > 0 ? await softDelete(ctx, stream.table, stream.key, new Set([...seen, ...verdict.keep]), variant.scope) : 0;
      // Children follow a whole verdict only: a part held back leaves its parents' children for the next pass.
      const children =
        stream.child && verdict.keep.size === 0 ? await softDelete(ctx, stream.child.table, stream.child.key, this.childSeen, {}) : 0;
      ctx.stats.deleted += deleted + children;
    }
    await settleArrivals(ctx.store, this.place(), this.keyed(), seen, (records) => this.writeArrivals(records));
    return allHeld && end !== null;
  }

  /** Records that waited for the rows they rename to go, written as any page is. */
  private async writeArrivals(records: unknown[]): Promise<void> {
    const now = this.ctx.now();
    const written = await this.ctx.store.transaction((tx) => writeRecords(tx, this.stream, records, now));
    addWrites(this.ctx.stats, written.counts);
  }

  /** A list of more than one page reads page 1 again: records that moved across its end shifted every page. */
  private async firstPageDoubt(): Promise<string | null> {
    if (this.lastPage < 2 || this.firstPageKeys === null) return null;
    return firstPageMoved(this.ctx, this.stream, this.variant, this.firstPageKeys);
  }
}

function softDelete(ctx: StreamContext, table: string, key: readonly string[], seen: ReadonlySet<string>, scope: Row): Promise<number> {
  return ctx.store.softDeleteMissing(table, key, seen, scope, ctx.now());
}

/** Page-group transactions of one variant in flight at once: two, one for pages of 500 records or more. */
function writeWindow(stream: ListStream): number {
  return Math.max(1, Math.min(MAX_WRITES_AT_ONCE, Math.floor(MAX_ROWS_BEING_WRITTEN / catalogPageSize(stream))));
}
