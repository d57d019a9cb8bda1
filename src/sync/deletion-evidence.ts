// Deletions need evidence. A complete pass soft-deletes the rows it was not served, so a page that lies
// (empty or short in the middle of a list while later pages still hold records) would delete everything
// it hid, and history would keep the fake deletions. Before deleting, the end is checked, at a cost only
// when there is something to delete: the page after the short one must be empty (one request), and a
// pass about to delete an unusual share of the list (more than `maxDeleteShare`, 5%) reads its last page
// again (one more) and must find it as it was. Otherwise nothing is deleted and the run says why.
// A pass whose list moved under it is no basis either: offset paging skips a record when one before it
// goes, and serves one twice when one is added. So a key served twice, a count the service reports that
// moved or disagrees, or a first page that reads differently at the end means the next pass decides.
import type { ListStream } from '../catalog/types.js';
import { keyString } from '../store/types.js';
import type { StreamContext } from './context.js';
import { DEFAULT_MAX_DELETE_SHARE } from './deletion-gate.js';
import { fetchListPage, openListPage, WrittenPages } from './list-page.js';
import { listRequests, type Variant } from '../requests/list-requests.js';
import { liveRows } from '../requests/list-size.js';
import { recordsToRows } from './record-rows.js';

const NEXT_PASS = 'the next complete pass that sees a stable list decides';

/** Keys served in one pass, with what shows the list moved: a key served twice, a reported count. */
export class PassKeys {
  readonly seen = new Set<string>();
  private served = 0;
  private duplicates = 0;
  private duplicate = '';
  private readonly totals = new Set<number>();

  add(key: string): void {
    // One look-up a key, not a `has` then an `add`: a first sync adds 55,000 (scale 10).
    const before = this.seen.size;
    if (this.seen.add(key).size === before && this.duplicates++ === 0) this.duplicate = key;
  }

  /** A page's records, and the count it says the whole list holds (`metadata.totalRows`), when it says one. */
  page(records: number, total: unknown): void {
    this.served += records;
    if (typeof total === 'number' && Number.isInteger(total) && total >= 0) this.totals.add(total);
  }

  /** Why the pass saw a moving or lying list, or null. */
  doubt(): string | null {
    if (this.duplicates > 0)
      return `${this.duplicates} key(s) served twice in one pass (e.g. ${this.duplicate.slice(0, 40)}): the list moved under the pass; ${NEXT_PASS}`;
    if (this.totals.size > 1) return `the service's own count moved during the pass (${[...this.totals].join(', ')}); ${NEXT_PASS}`;
    const [total] = this.totals;
    if (total !== undefined && total !== this.served)
      return `the service reported ${total} records but served ${this.served}; ${NEXT_PASS}`;
    return null;
  }
}

/** Why page 1, read again at the end of the pass, no longer holds the keys it held at its start; null if it does. */
export async function firstPageMoved(
  ctx: StreamContext,
  stream: ListStream,
  variant: Variant,
  before: readonly string[],
): Promise<string | null> {
  const query = listRequests(stream, ctx.settings, variant, null).query(1);
  const page = await openListPage(stream, WrittenPages.none, await fetchListPage(ctx, stream, 1, query));
  const now = recordsToRows(page.records ?? [], stream).rows.map((row) => keyString(stream.key.map((k) => row[k])));
  const earlier = new Set(before);
  if (now.length === earlier.size && now.every((key) => earlier.has(key))) return null;
  return `page 1 served ${before.length} records at the start of the pass and ${now.length}, not the same ones, at its end: the list moved under the pass; ${NEXT_PASS}`;
}

export interface PassEnd {
  /** The page that ended the list, and how many records it held. */
  lastPage: number;
  lastCount: number;
  /** Rows the pass was served (and keeps). */
  seen: number;
}

/** Why the pass's end cannot be trusted to delete, or null when it can (or there is nothing to delete). */
export async function endInDoubt(ctx: StreamContext, stream: ListStream, variant: Variant, end: PassEnd): Promise<string | null> {
  const live = await liveRows(ctx.store, stream.table, variant.scope);
  const missing = live - end.seen;
  if (missing <= 0) return null;
  const where = variant.name ? ` (${variant.name})` : '';
  const held = `${missing} rows of ${stream.table}${where} not deleted`;
  // A list served whole in one response has no page after its last; a paged one must end empty.
  const after = stream.paginator.type === 'single' ? 0 : await countOf(ctx, stream, variant, end.lastPage + 1);
  if (after > 0) {
    return `${held}: page ${end.lastPage} held ${end.lastCount} records, yet page ${end.lastPage + 1} still served ${after}; the next complete pass decides`;
  }
  const share = ctx.settings.maxDeleteShare ?? DEFAULT_MAX_DELETE_SHARE;
  if (missing > share * live) {
    const again = await countOf(ctx, stream, variant, end.lastPage);
    if (again !== end.lastCount) {
      return `${held} (${Math.round((100 * missing) / live)}% of the list): page ${end.lastPage} held ${end.lastCount} records, then ${again} when read again; the next complete pass decides`;
    }
  }
  return null;
}

/** Records one page of the variant holds now (a request, counted as every page is). */
async function countOf(ctx: StreamContext, stream: ListStream, variant: Variant, page: number): Promise<number> {
  const query = listRequests(stream, ctx.settings, variant, null).query(page);
  const fetched = await fetchListPage(ctx, stream, page, query);
  return (await openListPage(stream, WrittenPages.none, fetched)).count;
}
