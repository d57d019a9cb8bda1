// Deletions need evidence. A complete pass soft-deletes the rows it was not served, so a page that lies
// (empty or short in the middle of a list while later pages still hold records) would delete everything
// it hid, and history would keep the fake deletions. Before deleting, the end is checked, at a cost only
// when there is something to delete: the page after the short one must be empty (one request), and a
// pass about to delete an unusual share of the list (more than `maxDeleteShare`, 5%) reads its last page
// again (one more) and must find it as it was. Otherwise nothing is deleted and the run says why.
import type { ListStream } from '../catalog/types.js';
import type { StreamContext } from './context.js';
import { fetchListPage, openListPage, WrittenPages } from './list-page.js';
import { listQuery, pageQuery } from './list-request.js';
import { liveRows } from './list-rows.js';

export const DEFAULT_MAX_DELETE_SHARE = 0.05;

type Variant = NonNullable<ListStream['variants']>[number];

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
  const query = pageQuery(stream, ctx.settings, listQuery(stream, ctx.settings, variant), page, null);
  const fetched = await fetchListPage(ctx, stream, page, query);
  return (await openListPage(stream, WrittenPages.none, fetched)).count;
}
