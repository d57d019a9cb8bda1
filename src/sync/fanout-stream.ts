// A fan-out: the per-item endpoint of each selected parent row, fetched concurrently within the client's
// limits. One record per parent is upserted when changed; many rows per parent are replaced whole, and only
// when their content hash differs from the last write.
import pLimit from 'p-limit';
import type { FanoutParent, FanoutStream } from '../catalog/types.js';
import { DsMirrorError } from '../errors.js';
import { isRecordError } from '../store/storage-errors.js';
import type { Row, Store } from '../store/types.js';
import { addWrites, type Selection, type StreamContext, type SyncSettings } from './context.js';
import { contentHash } from './record-rows.js';

const BATCH = 100;

export async function syncFanout(ctx: StreamContext, stream: FanoutStream): Promise<void> {
  const { stats } = ctx;
  const selection = selectionFor(ctx.settings, stream);
  const parents = await selectParents(ctx.store, stream, selection);
  ctx.progress.start(stream.name, parents.length);
  const limit = pLimit(ctx.settings.fanoutConcurrency);
  let pending: Row[] = [];

  const flush = async () => {
    const rows = pending;
    pending = [];
    if (rows.length === 0) return;
    const counts = await ctx.store.transaction((tx) => tx.upsertChanged(stream.table, stream.key, rows, ctx.now(), stream.name));
    addWrites(stats, counts);
    stats.errors += counts.rejected;
  };

  await Promise.all(
    parents.map((parent) =>
      limit(async () => {
        if (ctx.signal.aborted) {
          stats.outcome = 'stopped';
          return;
        }
        const response = await fetchParent(ctx, stream, parent);
        if (response === undefined) return;
        if (stream.shape === 'record') {
          for (const row of stream.toRows(response, parent)) {
            const raw = JSON.stringify(response);
            pending.push({ ...row, raw, row_hash: contentHash(raw) });
          }
          stats.fetched++;
          if (pending.length >= BATCH) await flush();
        } else {
          await replaceRows(ctx, stream, parent, stream.toRows(response, parent));
        }
        ctx.progress.advance(stream.name, stats);
      }),
    ),
  );
  await flush();
}

/** The parent's response, all pages of it for a paged fan-out; undefined when the parent is gone (404). */
async function fetchParent(ctx: StreamContext, stream: FanoutStream, parent: FanoutParent): Promise<unknown> {
  const query = stream.query?.(parent, ctx.settings.fanout) ?? {};
  try {
    if (!stream.pageSize) {
      ctx.stats.requests++;
      return await ctx.client.get(stream.path(parent), query);
    }
    const data: unknown[] = [];
    for (let page = 1; ; page++) {
      ctx.stats.requests++;
      const body = await ctx.client.get<{ data?: unknown[] }>(stream.path(parent), { ...query, page, limit: stream.pageSize });
      const rows = Array.isArray(body?.data) ? body.data : [];
      data.push(...rows);
      if (rows.length < stream.pageSize) return { data };
    }
  } catch (error) {
    if (error instanceof DsMirrorError && error.code === 'DS_NOT_FOUND') {
      ctx.stats.errors++;
      ctx.logger.warn({ stream: stream.name, parent: parent.idOrSlug }, 'parent not found upstream; skipped');
      return undefined;
    }
    throw error;
  }
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
  if (known?.row_hash === hash) {
    stats.unchanged += rows.length;
    return;
  }
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
  if (known) stats.updated += rows.length;
  else stats.inserted += rows.length;
}

export async function selectParents(store: Store, stream: FanoutStream, selection: Selection): Promise<FanoutParent[]> {
  const { table, key, idOrSlug, orderBy } = stream.parent;
  let query = store.db.selectFrom(table).select([`${key} as key`, `${idOrSlug} as idOrSlug`]).where('deleted_at', 'is', null);
  if ('ids' in selection) {
    const ids = [...selection.ids];
    // Compared as text: a selection mixes numeric ids and slugs, and PostgreSQL will not compare bigint to text.
    query = query.where((eb) => eb.or([eb(eb.cast(eb.ref(key), 'text'), 'in', ids), eb(eb.cast(eb.ref(idOrSlug), 'text'), 'in', ids)]));
  }
  if (orderBy) query = query.orderBy((eb) => eb(orderBy, 'is', null)).orderBy(orderBy);
  query = query.orderBy(key);
  if ('top' in selection) query = query.limit(selection.top);
  const rows = (await query.execute()) as { key: string | number; idOrSlug: unknown }[];
  return rows.map((r) => ({ key: r.key, idOrSlug: String(r.idOrSlug) }));
}

/** Without a configured selection, a fan-out covers the first 100 parents (requests are precious). */
export function selectionFor(settings: SyncSettings, stream: FanoutStream): Selection {
  return settings.selection[stream.parent.table] ?? { top: 100 };
}
