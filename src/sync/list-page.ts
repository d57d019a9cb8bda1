// One page of a list, fetched as text and hashed. A page whose request and bytes equal the last ones
// written for that page number is not parsed at all: its keys come from `page_hashes`. A `--full` run
// never skips (it re-reads and re-checks every record).
import { buildUrl } from '../client/index.js';
import type { ListStream, Query } from '../catalog/types.js';
import { DsMirrorError } from '../errors.js';
import type { Store, StoreTx } from '../store/types.js';
import type { StreamContext } from './context.js';
import { contentHash } from './record-rows.js';

export interface ListPage {
  page: number;
  request: string;
  hash: string;
  count: number;
  /** The records, or null when the page is unchanged since it was last written. */
  records: unknown[] | null;
  /** The keys (keyString) of an unchanged page, from the last write. */
  keys: string[] | null;
}

export async function fetchListPage(ctx: StreamContext, stream: ListStream, variant: string, page: number, query: Query): Promise<ListPage> {
  const request = buildUrl('', stream.path, query);
  ctx.stats.requests++;
  const text = await ctx.client.getText(stream.path, query);
  const hash = contentHash(text);
  if (ctx.settings.mode !== 'full') {
    const known = await ctx.store.db
      .selectFrom('page_hashes')
      .select(['request', 'body_hash', 'records', 'keys'])
      .where('stream', '=', stream.name)
      .where('variant', '=', variant)
      .where('page', '=', page)
      .executeTakeFirst();
    if (known && known.request === request && known.body_hash === hash) {
      return { page, request, hash, count: Number(known.records), records: null, keys: JSON.parse(String(known.keys)) };
    }
  }
  let body: { data?: unknown };
  try {
    body = JSON.parse(text);
  } catch {
    throw new DsMirrorError('DS_BAD_RESPONSE', `${request}: the response is not JSON`, 'retriable');
  }
  if (!body || !Array.isArray(body.data)) {
    throw new DsMirrorError('DS_BAD_RESPONSE', `${request}: the response has no data array`, 'retriable');
  }
  return { page, request, hash, count: body.data.length, records: body.data, keys: null };
}

/** Records the page as written, in the transaction that wrote its rows. */
export async function savePageHash(tx: StoreTx, stream: string, variant: string, page: ListPage, keys: readonly string[], now: string): Promise<void> {
  const row = { request: page.request, body_hash: page.hash, records: page.count, keys: JSON.stringify(keys), synced_at: now };
  await tx.db
    .insertInto('page_hashes')
    .values({ stream, variant, page: page.page, ...row })
    .onConflict((oc) => oc.columns(['stream', 'variant', 'page']).doUpdateSet(row))
    .execute();
}

/** After a variant's last page: pages past it are gone, and their hashes must never vouch for rows again. */
export async function forgetPagesAfter(store: Store, stream: string, variant: string, lastPage: number): Promise<void> {
  await store.db.deleteFrom('page_hashes').where('stream', '=', stream).where('variant', '=', variant).where('page', '>', lastPage).execute();
}

/** How many records a list (variant) held when last read, from its page hashes: 0 when never read. */
export async function rowsLastSeen(store: Store, stream: string, variant: string): Promise<number> {
  const row = (await store.db
    .selectFrom('page_hashes')
    .select((eb) => eb.fn.sum('records').as('n'))
    .where('stream', '=', stream)
    .where('variant', '=', variant)
    .executeTakeFirst()) as { n: number | string | null } | undefined;
  return Number(row?.n ?? 0);
}
