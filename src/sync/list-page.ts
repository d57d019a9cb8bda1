// One page of a list: fetched as bytes, then hashed and parsed. A page whose request and bytes equal the
// last ones written for that page number is not parsed at all: its keys come from `page_hashes`.
import { buildUrl, jsonObjectBytes } from '../client/index.js';
import type { ListStream, Query } from '../catalog/types.js';
import { DsMirrorError } from '../errors.js';
import { pick } from './row-mapping.js';
import { keyString, type Store, type StoreTx } from '../store/types.js';
import type { StreamContext, SyncSettings } from './context.js';
import { contentHash } from '../content-hash.js';
import { noteOverflowSuspects, recordsToRows } from './record-rows.js';
import { noteBrokenText } from '../broken-text.js';
import { afterParsing } from './full-collections.js';

export interface ListPage {
  page: number;
  request: string;
  hash: string;
  count: number;
  /** The records, or null when the page is unchanged since it was last written. */
  records: unknown[] | null;
  /** The keys (keyString) of an unchanged page, from the last write. */
  keys: string[] | null;
  /** The key of the page's first mirrorable record and the hash of its bytes: a page that repeats an earlier one's means paging is ignored. */
  signatures: readonly (string | undefined)[];
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
    // A stopping run sends no further attempt of a page (a retry's wait ends at once): the stop is bounded.
    body: await ctx.client.getBytes(stream.path, query, {
      check: jsonObjectBytes,
      keyless: stream.keyless,
      signal: abandoned ? AbortSignal.any([abandoned, ctx.requestSignal ?? ctx.signal]) : (ctx.requestSignal ?? ctx.signal),
    }),
  };
}

/**
 * The variant's pages as last written (request, body hash, record count and keys), read in one query when
 * its pass starts, so that opening a page asks the store nothing. Only this pass writes them (the stream's
 * lease). The keys stay text until their page comes back unchanged.
 */
export class WrittenPages {
  static readonly none = new WrittenPages(new Map());

  private constructor(private readonly byPage: ReadonlyMap<number, { request: string; hash: string; records: number; keys: string }>) {}

  /** A `--full` run never skips (it re-reads and re-checks every record); nor does a list with a child table. */
  static async read(store: Store, mode: SyncSettings['mode'], stream: ListStream, variant: string): Promise<WrittenPages> {
    if (mode === 'full' || stream.child) return WrittenPages.none;
    const rows = await store.db
      .selectFrom('page_hashes')
      .select(['page', 'request', 'body_hash', 'records', 'keys'])
      .where('stream', '=', stream.name)
      .where('variant', '=', variant)
      .execute();
    const byPage = rows.map(
      (r) => [Number(r.page), { request: r.request, hash: r.body_hash, records: Number(r.records), keys: String(r.keys) }] as const,
    );
    return new WrittenPages(new Map(byPage));
  }

  /** The record count and keys of a page byte for byte as last written under its number, or null. */
  unchanged(page: number, request: string, hash: string): { count: number; keys: string[] } | null {
    const known = this.byPage.get(page);
    if (known?.request !== request || known.hash !== hash) return null;
    return { count: known.records, keys: JSON.parse(known.keys) };
  }
}

/** Parses a fetched page, unless it is byte for byte the page last written under that number. */
export async function openListPage(stream: ListStream, written: WrittenPages, fetched: FetchedPage): Promise<ListPage> {
  const { page, request, body } = fetched;
  const hash = contentHash(body);
  const same = written.unchanged(page, request, hash);
  if (same)
    return {
      page,
      request,
      hash,
      count: same.count,
      records: null,
      keys: same.keys,
      signatures: signatures(same.keys[0], same.count, hash),
    };
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
  noteBrokenText(body, text, records);
  afterParsing.parsed(body.length);
  return {
    page,
    request,
    hash,
    count: records.length,
    records,
    keys: null,
    signatures: signatures(firstKey(stream, records), records.length, hash),
  };
}

function signatures(firstKey: string | undefined, count: number, hash: string): (string | undefined)[] {
  return [firstKey === undefined ? undefined : `key:${firstKey}`, count > 0 ? `body:${hash}` : undefined];
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
