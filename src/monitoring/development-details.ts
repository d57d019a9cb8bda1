// Development details (/monitoring/v2/developments/{id}: documents, assets, the event reference) are
// fetched only for pending developments: new or whose summary changed (detail_fetched_at is null),
// including ones a webhook inserted. Fetched concurrently within the client's limits, written in
// batches. One that fails stays pending and is fetched again next run; one the service no longer has
// (404) is soft-deleted. An auth failure or a spent request budget stops the stream.
import { sql, type RawBuilder } from 'kysely';
import pLimit from 'p-limit';
import { MONITORING_PATHS } from '../catalog/monitoring.js';
import { AuthError, NotFoundError, RequestBudgetError } from '../client/index.js';
import { DsMirrorError } from '../errors.js';
import type { Row } from '../store/types.js';
import type { StreamContext } from '../sync/context.js';
import { detailColumns } from './event-rows.js';

const BATCH = 100;

interface Pending {
  id: string;
  row_hash: string;
}

interface Fetched extends Pending {
  detail: Record<string, unknown>;
}

export async function fetchPendingDetails(ctx: StreamContext): Promise<void> {
  const { stats, logger } = ctx;
  const pending = (await ctx.store.db
    .selectFrom('monitoring_developments')
    .select(['id', 'row_hash'])
    .where('detail_fetched_at', 'is', null)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute()) as Pending[];
  if (pending.length === 0) return;
  logger.debug({ pending: pending.length }, 'fetching development details');

  const limit = pLimit(ctx.settings.fanoutConcurrency);
  let batch: Fetched[] = [];
  const gone: string[] = [];
  let stop: unknown = null;
  const flush = async () => {
    const rows = batch;
    batch = [];
    if (rows.length === 0) return;
    // Read after the write: flushes run concurrently, and `+= await` would add to a stale total.
    const updated = await writeDetails(ctx, rows);
    stats.updated += updated;
  };

  await Promise.all(
    pending.map((p) =>
      limit(async () => {
        if (ctx.signal.aborted || stop !== null) return;
        try {
          stats.requests++;
          const body = await ctx.client.get<{ data?: unknown }>(MONITORING_PATHS.development(p.id));
          const detail = body?.data;
          if (detail === null || typeof detail !== 'object' || Array.isArray(detail)) {
            throw new DsMirrorError('DS_BAD_RESPONSE', `development ${p.id}: the response has no data object`, 'retriable');
          }
          stats.fetched++;
          batch.push({ ...p, detail: detail as Record<string, unknown> });
          if (batch.length >= BATCH) await flush();
          ctx.progress.advance(ctx.stats.stream, stats);
        } catch (error) {
          if (error instanceof NotFoundError) gone.push(p.id);
          else if (error instanceof AuthError || error instanceof RequestBudgetError) stop ??= error;
          else {
            stats.errors++;
            logger.warn({ development: p.id, err: error instanceof Error ? error.message : String(error) }, 'development detail not fetched; it stays pending for the next run');
          }
        }
      }),
    ),
  );
  await flush();
  if (gone.length > 0) {
    const [result] = await ctx.store.db
      .updateTable('monitoring_developments')
      .set({ deleted_at: ctx.now() })
      .where('id', 'in', gone)
      .where('deleted_at', 'is', null)
      .execute();
    stats.deleted += Number(result?.numUpdatedRows ?? 0n);
    logger.info({ developments: gone.length }, 'developments no longer served (404) were soft-deleted');
  }
  if (stop !== null) throw stop;
  if (ctx.signal.aborted) stats.outcome = 'stopped';
}

/** One transaction per batch; a row whose summary changed since it was read keeps its pending state. */
async function writeDetails(ctx: StreamContext, fetched: readonly Fetched[]): Promise<number> {
  const now = ctx.now();
  return ctx.store.transaction(async (tx) => {
    let written = 0;
    for (const f of fetched) {
      const values = bindable({ ...detailColumns(f.detail), raw: f.detail, detail_fetched_at: now, synced_at: now });
      const [result] = await tx.db
        .updateTable('monitoring_developments')
        .set(values)
        .where('id', '=', f.id)
        .where('row_hash', '=', f.row_hash)
        .execute();
      written += Number(result?.numUpdatedRows ?? 0n);
    }
    return written;
  });
}

/**
 * Values both drivers bind: JSON text for arrays and objects, and booleans as SQL literals (`true`/`false`
 * are understood by PostgreSQL and by SQLite, whose driver refuses JS booleans as parameters).
 */
function bindable(row: Row): Record<string, unknown | RawBuilder<unknown>> {
  const out: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    if (typeof value === 'boolean') out[column] = sql.lit(value);
    else if (value !== null && typeof value === 'object') out[column] = JSON.stringify(value);
    else out[column] = value;
  }
  return out;
}
