// A fan-out: the per-item endpoint of each selected parent row, fetched concurrently within the client's
// limits. One record per parent is upserted when changed; many rows per parent are replaced whole, and only
// when their content hash differs from the last write.
import pLimit from 'p-limit';
import type { FanoutParent, FanoutStream, PageNumberSpec, Query } from '../catalog/types.js';
import { ConfigError, errorAction } from '../errors.js';
import { rowChanged } from '../store/changed-row.js';
import { isRecordError } from '../store/storage-errors.js';
import { keyString, type Row, type Store } from '../store/types.js';
import { addWrites, type StreamContext } from './context.js';
import { contentHash } from '../content-hash.js';
import { fanoutPath, fanoutQuery, selectionFor, selectParents } from '../requests/fanout-parents.js';
import { fanoutItems, fanoutRows } from './fanout-rows.js';
import { PageNumberPaginator } from '../paging/paginator.js';
import { pages } from '../paging/pager.js';
import type { ShapeSource } from './shape/expected-shape.js';
import type { PassShape } from './shape/pass-shape.js';
import { watchShape } from './shape/watch-shape.js';

const BATCH = 100;
/** One parent's rows are held together to be replaced in one transaction: this bounds the memory they take. */
const MAX_ROWS_PER_PARENT = 1_000_000;

/** What a fan-out's parents told the run: the requested values seen in their rows, the parents gone upstream. */
interface ParentsSeen {
  values: Set<string>;
  absent: string[];
}

export async function syncFanout(ctx: StreamContext, stream: FanoutStream): Promise<void> {
  await watchShape(ctx, fanoutShapeSource(stream), (shape) => fanoutPass(ctx, stream, shape));
}

/** The pass over the selected parents; true when every one was read. */
async function fanoutPass(ctx: StreamContext, stream: FanoutStream, shape: PassShape): Promise<boolean> {
  const requested = requestedValues(ctx, stream);
  const parents = await selectParents(ctx.store, stream, selectionFor(ctx.settings, stream));
  // A record per parent: the parents are the total. Rows per parent: the count is not known ahead.
  ctx.progress.start(stream.name, stream.shape === 'record' ? parents.length : null);
  const seen: ParentsSeen = { values: new Set(), absent: [] };
  const records = new RecordBatch(ctx, stream, shape);
  const limit = pLimit(ctx.settings.fanoutConcurrency);
  // A parent failing (a spent quota, a failed write) starts no other parent, and the stream ends only once
  // those in flight are over: no request of the stream is sent or counted after it reported.
  const failed = new AbortController();
  const parentCtx: StreamContext = { ...ctx, signal: AbortSignal.any([ctx.signal, failed.signal]) };
  let failure: { error: unknown } | undefined;
  await Promise.allSettled(
    parents.map((parent) =>
      limit(() =>
        syncParent(parentCtx, stream, parent, records, seen, shape).catch((error: unknown) => {
          failure ??= { error };
          failed.abort();
        }),
      ),
    ),
  );
  if (failure) throw failure.error;
  await records.flush();
  reportMisses(ctx, stream, parents.length, requested, seen);
  return !ctx.signal.aborted;
}

/** The values a stream needs the user to name (metric-series' projects); none given is a config error. */
function requestedValues(ctx: StreamContext, stream: FanoutStream): readonly string[] {
  const requested = stream.requested ? ctx.settings.fanout[stream.requested.setting] : [];
  if (stream.requested && requested.length === 0) {
    throw new ConfigError(`${stream.name} needs ${stream.requested.flag}: the service answers only for the values given there`);
  }
  return requested;
}

async function syncParent(
  ctx: StreamContext,
  stream: FanoutStream,
  parent: FanoutParent,
  records: RecordBatch,
  seen: ParentsSeen,
  shape: PassShape,
): Promise<void> {
  if (ctx.signal.aborted) {
    ctx.stats.outcome = 'stopped';
    return;
  }
  const response = await fetchParent(ctx, stream, parent);
  if (response === undefined) {
    seen.absent.push(parent.idOrSlug);
    return;
  }
  if (stream.shape === 'record') {
    await records.add(response, parent);
  } else {
    // Replaced whole: the items are watched and reported; no column of theirs is typed by the catalog.
    for (const item of fanoutItems(stream, response)) shape.take(item);
    const rows = fanoutRows(stream, response, parent);
    if (stream.requested) for (const row of rows) seen.values.add(String(row[stream.requested.column]));
    await replaceRows(ctx, stream, parent, rows);
  }
  ctx.progress.advance(stream.name, ctx.stats);
}

/**
 * One record per parent, upserted when changed, a batch per transaction. The shape sees each record first
 * (pass-shape.ts): one whose typed field came in a form that loses something is quarantined and its row
 * keeps what it held; most of a batch so is a change of shape that fails the stream; a typed field gone
 * from the whole batch keeps the rows as they were until it is confirmed.
 */
class RecordBatch {
  private pending: { record: unknown; rows: Row[] }[] = [];
  private rejected: { record: unknown; field: string; reason: string }[] = [];

  constructor(
    private readonly ctx: StreamContext,
    private readonly stream: FanoutStream,
    private readonly shape: PassShape,
  ) {}

  async add(response: unknown, parent: FanoutParent): Promise<void> {
    this.ctx.stats.fetched++;
    const problem = this.shape.take(response); // coerces in place: the row and `raw` read the mirror's types
    if (problem) this.rejected.push({ record: response, ...problem });
    else {
      const raw = JSON.stringify(response);
      const rowHash = contentHash(raw);
      const rows = fanoutRows(this.stream, response, parent).map((row) => ({ ...row, raw, row_hash: rowHash }));
      this.pending.push({ record: response, rows });
    }
    if (this.pending.length + this.rejected.length >= BATCH) await this.flush();
  }

  async flush(): Promise<void> {
    const { ctx, stream, shape } = this;
    const { pending, rejected } = this;
    this.pending = [];
    this.rejected = [];
    shape.judgePage(rejected, pending.length + rejected.length);
    const held = shape.holdPage(pending.map((p) => p.record)).length > 0;
    if (held) ctx.stats.heldRows = (ctx.stats.heldRows ?? 0) + pending.length;
    const rows = held ? [] : pending.flatMap((p) => p.rows);
    if (rows.length === 0 && rejected.length === 0) return;
    const now = ctx.now();
    const counts = await ctx.store.transaction(async (tx) => {
      for (const r of rejected) await tx.quarantine(stream.name, r.reason, r.record, now);
      return tx.upsertChanged(stream.table, stream.key, rows, now, stream.name);
    });
    addWrites(ctx.stats, counts);
    ctx.stats.errors += counts.rejected + rejected.length;
  }
}

/** What a fan-out's records are watched against: a record's typed columns; the items of rows fan-outs, none. */
function fanoutShapeSource(stream: FanoutStream): ShapeSource {
  return { columns: stream.shape === 'record' ? (stream.columns ?? {}) : {}, required: [] };
}

/** Parents gone upstream (normal: an asset without a rating has no rating record), and requested values no parent had. */
function reportMisses(ctx: StreamContext, stream: FanoutStream, parents: number, requested: readonly string[], seen: ParentsSeen): void {
  const { absent } = seen;
  if (absent.length > 0) {
    // Counted, and said once, at debug.
    ctx.stats.absent = absent.length;
    ctx.logger.debug({ parents: absent.length, first: absent.slice(0, 5) }, 'parents with no record upstream (404); skipped');
  }
  const unmatched = requested.filter((v) => !seen.values.has(v));
  if (stream.requested && unmatched.length > 0 && parents > absent.length && !ctx.signal.aborted) {
    ctx.stats.notice = `${stream.requested.flag}: no rows for ${unmatched.map((v) => `"${v}"`).join(', ')} in any of ${parents - absent.length} ${stream.parent.table}; check the spelling`;
  }
}

/** The parent's response, all pages of it for a paged fan-out; undefined when the parent is gone (404). */
async function fetchParent(ctx: StreamContext, stream: FanoutStream, parent: FanoutParent): Promise<unknown> {
  const query = fanoutQuery(stream, ctx.settings.fanout) ?? {};
  const path = fanoutPath(stream, parent);
  try {
    if (!stream.paginator) {
      return await ctx.client.get(path, query);
    }
    return await fetchPagedParent(ctx, path, query, stream.paginator);
  } catch (error) {
    if (errorAction(error) === 'skip') return undefined;
    throw error;
  }
}

/**
 * Every page of one parent's rows (replaced whole, so held together), through the pager and guard every list
 * uses: a service that ignores `page` stops at the first repeated page instead of growing memory forever, and
 * one parent holds at most MAX_ROWS_PER_PARENT rows.
 */
async function fetchPagedParent(ctx: StreamContext, path: string, query: Query, spec: PageNumberSpec): Promise<{ data: unknown[] }> {
  const limits = { expectedRows: 0, ceiling: ctx.settings.maxPagesPerList, maxRows: MAX_ROWS_PER_PARENT };
  const paginator = new PageNumberPaginator(spec, { path, limits });
  const fetchPage = async (page: number) => {
    const body = await ctx.client.get<{ data?: unknown[] }>(path, { ...query, ...paginator.params(page) });
    const rows = Array.isArray(body?.data) ? body.data : [];
    // The whole page is its signature: rows of a series repeat (a run of zeros), whole pages do not.
    return { count: rows.length, rows, signatures: [rows.length > 0 ? contentHash(JSON.stringify(rows)) : undefined] };
  };
  const data: unknown[] = [];
  for await (const { fetched } of pages({ paginator, fetchPage, startPage: 1, expectedRows: 0, window: 1 })) {
    for (const row of fetched.rows) data.push(row);
  }
  return { data };
}

async function replaceRows(ctx: StreamContext, stream: FanoutStream, parent: FanoutParent, rows: Row[]): Promise<void> {
  const { stats } = ctx;
  stats.fetched += rows.length;
  const hash = contentHash(JSON.stringify(rows));
  const parentKey = String(parent.key);
  const known = await ctx.store.db
    .selectFrom('fanout_parents')
    .select('row_hash')
    .where('stream', '=', stream.name)
    .where('parent_key', '=', parentKey)
    .executeTakeFirst();
  if (known && !rowChanged(known, hash)) {
    stats.unchanged += rows.length;
    return;
  }
  // Counted by key against what the parent held: new keys are inserts, kept keys updates, gone keys deletions.
  const before = known ? await childKeys(ctx.store, stream, parent) : new Set<string>();
  const now = ctx.now();
  try {
    await ctx.store.transaction(async (tx) => {
      await tx.replaceChildren(stream.table, { [stream.key[0]]: parent.key }, rows);
      await tx.db
        .insertInto('fanout_parents')
        .values({ stream: stream.name, parent_key: parentKey, row_hash: hash, rows: rows.length, synced_at: now })
        .onConflict((oc) => oc.columns(['stream', 'parent_key']).doUpdateSet({ row_hash: hash, rows: rows.length, synced_at: now }))
        .execute();
    });
  } catch (error) {
    // The store refuses these rows' values (a NUL, a wrong type): this parent's rows are quarantined and keep
    // their last good version; the other parents go on. A store that cannot write fails the stream.
    if (!isRecordError(error)) throw error;
    const reason = `parent ${parent.idOrSlug}: ${(error as Error).message.slice(0, 300)}`;
    await ctx.store.transaction((tx) => tx.quarantine(stream.name, reason, { parent: parent.key, rows }, now));
    stats.errors++;
    return;
  }
  let kept = 0;
  for (const row of rows) if (before.has(keyString(stream.key.map((k) => row[k])))) kept++;
  stats.updated += kept;
  stats.inserted += rows.length - kept;
  stats.deleted += before.size - kept;
}

async function childKeys(store: Store, stream: FanoutStream, parent: FanoutParent): Promise<Set<string>> {
  const rows = (await store.db
    .selectFrom(stream.table)
    .select([...stream.key])
    .where(stream.key[0], '=', parent.key)
    .execute()) as Row[];
  return new Set(rows.map((r) => keyString(stream.key.map((k) => r[k]))));
}
