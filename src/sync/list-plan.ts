// What one run of a list requests: its pages as the paging room counts them (src/paging/), for the rows
// the list held when last read, its window's rows, or the real service's published size (the catalog's)
// for what the mirror does not hold yet (then marked as an estimate). `intervalDays` is the time since
// the stream's previous run: the growth a date window reads on top of its lookback.
import type { ListStream, StreamDef } from '../catalog/types.js';
import { buildUrl } from '../client/index.js';
import { count } from '../figures.js';
import { windowStart } from '../requests/date-window.js';
import { listPaginator, listRequests, readAheadExtra } from '../requests/list-requests.js';
import { rowsExpected } from '../requests/list-size.js';
import type { SyncSettings } from '../requests/run-settings.js';
import type { Store } from '../store/types.js';
import type { ListCheckpoint } from './list-checkpoint.js';
import type { StreamPlan } from './stream-runner.js';

/**
 * Where the next run resumes an interrupted pass of a list, per variant: its next page (null: read to its
 * end), from the checkpoint the run reads (list-checkpoint.ts). None on a full run, which starts again at
 * page 1, nor for a scheduled run's steady cost (intervalDays > 0).
 */
export async function resumePoints(
  store: Store,
  settings: SyncSettings,
  stream: StreamDef,
  intervalDays = 0,
): Promise<Pick<ListCheckpoint, 'next' | 'windowStart'> | null> {
  if (stream.kind !== 'list' || intervalDays > 0 || settings.mode === 'full') return null;
  const saved = (await store.getState(stream.name))?.checkpoint as Partial<ListCheckpoint> | null;
  return saved?.next ? { next: saved.next, windowStart: saved.windowStart ?? null } : null;
}

/** A variant's pages still to read: all of them, none once complete, or from the page it resumes at. */
function pagesLeft(pages: number, next: number | null | undefined): number {
  if (next === undefined) return pages;
  return next === null ? 0 : Math.max(1, pages - (next - 1));
}

/** The published records of a list (variant): what a list never read is priced at. */
function publishedRowsOf(stream: ListStream, variant: string): number {
  const rows = stream.published?.rows;
  return (typeof rows === 'object' ? rows[variant] : rows) ?? 0;
}

export async function listPlan(store: Store, settings: SyncSettings, stream: ListStream, intervalDays: number): Promise<StreamPlan> {
  const paginator = listPaginator(stream, settings);
  const variants = stream.variants ?? [{ name: '', scope: {} }];
  const resumed = await resumePoints(store, settings, stream, intervalDays);
  const left = (variant: string, pages: number) => pagesLeft(pages, resumed?.next[variant]);
  // A list with a fixed last page (the top of a ranking, a list in one response) reads to it.
  const { lastPage } = paginator;
  if (lastPage !== undefined) return { requests: variants.reduce((n, v) => n + left(v.name, lastPage), 0), estimated: false };
  // A pass resumed reads as it began: a window's pages, or (begun with no window) the whole list's.
  if (stream.window && settings.mode !== 'full' && (resumed === null || resumed.windowStart !== null)) {
    const inWindow = await windowRows(store, settings, stream);
    const perDay = stream.published?.rowsPerDay ?? 0;
    if (inWindow !== null)
      return { requests: left(variants[0]!.name, paginator.pagesFor(inWindow + perDay * intervalDays)), estimated: false };
    // Not mirrored yet: the next run reads everything; a scheduled run, once it has, only its window.
    if (intervalDays > 0) {
      const lookback = settings.lookbackDays[stream.name] ?? stream.window.defaultLookbackDays;
      return { requests: paginator.pagesFor(perDay * (lookback + intervalDays)), estimated: true };
    }
  }
  let requests = 0;
  let readAhead = 0;
  let estimated = false;
  for (const variant of variants) {
    // The pages last read; a date-window list reads only its window's pages, so also its live rows
    // (not for others: the assets-top tier fills the assets table without a complete pass).
    let rows = await rowsExpected(store, stream, variant);
    if (rows === 0) {
      rows = publishedRowsOf(stream, variant.name);
      estimated = true;
      // The next run reads ahead a list never read (at most this many past its end once its first page
      // is full); a scheduled run's steady cost (intervalDays > 0) comes after that first read.
      if (intervalDays === 0) readAhead += readAheadExtra(stream, settings);
    }
    requests += left(variant.name, paginator.pagesFor(rows));
  }
  return { requests: requests + readAhead, estimated, readAhead };
}

/** Rows an incremental window reads now (its lookback), or null when the table is empty (a first, complete read). */
async function windowRows(store: Store, settings: SyncSettings, stream: ListStream): Promise<number | null> {
  const from = await windowStart(store, settings, stream);
  if (from === null) return null;
  const row = (await store.db
    .selectFrom(stream.table)
    .select((eb) => eb.fn.countAll().as('n'))
    .where('deleted_at', 'is', null)
    .where(stream.window!.field, '>=', from)
    .executeTakeFirst()) as { n: unknown } | undefined;
  return Number(row?.n ?? 0);
}

/** How an incremental run reads a list: everything before a first sync, its window, or every page. */
export function listReading(stream: ListStream, settings: SyncSettings, synced: boolean): string {
  if (!synced) return 'first read: every page';
  if (stream.window) return `date window: the last ${settings.lookbackDays[stream.name] ?? stream.window.defaultLookbackDays} days`;
  return 'every page (no change filter)';
}

/** The next run's first page: where an interrupted pass resumes (inside the window it began with), else page 1 of the first class. */
export async function listFirstRequest(store: Store, settings: SyncSettings, stream: ListStream, baseUrl: string): Promise<string> {
  const resume = await resumePoints(store, settings, stream);
  const variant = stream.variants?.find((v) => resume?.next[v.name] !== null) ?? stream.variants?.[0];
  const page = resume?.next[variant?.name ?? ''] ?? 1;
  const start = resume ? resume.windowStart : await windowStart(store, settings, stream);
  const query = listRequests(stream, settings, variant, start).query(page);
  const more = stream.variants && stream.variants.length > 1 ? ` (and ${stream.variants.length - 1} more classes)` : '';
  return `GET ${buildUrl(baseUrl, stream.path, query)}${more}${page > 1 ? ` (resumes at page ${count(page)})` : ''}`;
}
