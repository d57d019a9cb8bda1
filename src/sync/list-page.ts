// One page of a list: fetched as text, then hashed and parsed when its turn comes. A page whose request
// and bytes equal the last ones written for that page number is not parsed at all: its keys come from
// `page_hashes`. A `--full` run never skips (it re-reads and re-checks every record).
import { buildUrl, jsonObjectBytes } from '../client/index.js';
import type { ListStream, Query } from '../catalog/types.js';
import { DsMirrorError } from '../errors.js';
import { pick } from '../catalog/mapping.js';
import { keyString, type Store, type StoreTx } from '../store/types.js';
import type { StreamContext } from './context.js';
import { contentHash } from '../content-hash.js';
import { noteOverflowSuspects, recordsToRows } from './record-rows.js';

export interface ListPage {
  page: number;
  request: string;
  hash: string;
  count: number;
  /** The records, or null when the page is unchanged since it was last written. */
  records: unknown[] | null;
  /** The keys (keyString) of an unchanged page, from the last write. */
  keys: string[] | null;
  /** The key of the page's first mirrorable record: a page that repeats the last one's means paging is ignored. */
  firstKey: string | undefined;
}

/** A page as fetched: its bytes, not yet decoded (pages fetched ahead wait in this form, off the JS heap). */
export interface FetchedPage {
  page: number;
  request: string;
  body: Buffer;
}

export async function fetchListPage(
  ctx: StreamContext,
  stream: ListStream,
  page: number,
  query: Query,
  abandoned?: AbortSignal,
): Promise<FetchedPage> {
  return {
    page,
    request: buildUrl('', stream.path, query),
    body: await ctx.client.getBytes(stream.path, query, { check: jsonObjectBytes, keyless: stream.keyless, signal: abandoned }),
  };
}

/** Parses a fetched page, unless it is byte for byte the page last written under that number. */
export async function openListPage(ctx: StreamContext, stream: ListStream, variant: string, fetched: FetchedPage): Promise<ListPage> {
  const { page, request, body } = fetched;
  const hash = contentHash(body);
  // A page's child rows are not kept with its hash, so a list with a child table is always parsed.
  if (ctx.settings.mode !== 'full' && !stream.child) {
    const known = await ctx.store.db
      .selectFrom('page_hashes')
      .select(['request', 'body_hash', 'records', 'keys'])
      .where('stream', '=', stream.name)
      .where('variant', '=', variant)
      .where('page', '=', page)
      .executeTakeFirst();
    if (known && known.request === request && known.body_hash === hash) {
      const keys: string[] = JSON.parse(String(known.keys));
      return { page, request, hash, count: Number(known.records), records: null, keys, firstKey: keys[0] };
    }
  }
  // The client's look at both ends (inside its retries) let the page through; a body broken inside is
  // rare, so it is not fetched again here: it fails the stream naming the page, and the next run re-reads it.
  let parsed: unknown;
  const text = body.toString('utf8');
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new DsMirrorError('DS_BAD_RESPONSE', `GET ${request} returned a body that is not JSON (${(err as Error).message})`);
  }
  const records = pick(parsed, stream.records);
  if (!Array.isArray(records)) {
    throw new DsMirrorError('DS_BAD_RESPONSE', `GET ${request} returned a body without a ${stream.records} array`);
  }
  noteOverflowSuspects(text, records);
  return { page, request, hash, count: records.length, records, keys: null, firstKey: firstKey(stream, records) };
}

function firstKey(stream: ListStream, records: readonly unknown[]): string | undefined {
  for (const record of records) {
    const [row] = recordsToRows([record], stream).rows;
    if (row) return keyString(stream.key.map((k) => row[k]));
  }
  return undefined;
}

/** Records the page as written, in the transaction that wrote its rows. */
export async function savePageHash(
  tx: StoreTx,
  stream: string,
  variant: string,
  page: ListPage,
  keys: readonly string[],
  now: string,
): Promise<void> {
  const row = { request: page.request, body_hash: page.hash, records: page.count, keys: JSON.stringify(keys), synced_at: now };
  await tx.db
    .insertInto('page_hashes')
    .values({ stream, variant, page: page.page, ...row })
    .onConflict((oc) => oc.columns(['stream', 'variant', 'page']).doUpdateSet(row))
    .execute();
}

/** After a variant's last page: pages past it are gone, and their hashes must never vouch for rows again. */
export async function forgetPagesAfter(store: Store, stream: string, variant: string, lastPage: number): Promise<void> {
  await store.db
    .deleteFrom('page_hashes')
    .where('stream', '=', stream)
    .where('variant', '=', variant)
    .where('page', '>', lastPage)
    .execute();
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
