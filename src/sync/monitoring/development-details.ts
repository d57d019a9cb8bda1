// Development details (/monitoring/v2/developments/{id}: documents, assets, the event reference) are the
// N+1 of this API: one request each, ~110,000 at real sizes, 9 hours at 200 requests a minute. So they
// are a bounded, prioritised backlog (src/requests/details-backlog.ts): at most maxPerRun a run, the rest
// wait, and `status` shows how many. The
// summary of every development is mirrored with its event whatever the backlog does. One that fails stays pending; one the
// service no longer has (404) is soft-deleted. An auth failure, a spent budget or quota stops the stream.
import { sql, type RawBuilder } from 'kysely';
import pLimit from 'p-limit';
import { MONITORING_PATHS } from '../../catalog/monitoring.js';
import { AuthError, dataObject } from '../../client/index.js';
import { DriftError, errorAction } from '../../errors.js';
import type { Row, StoreTx } from '../../store/types.js';
import { DEFAULT_DETAILS, pendingDetails, type PendingDetail } from '../../requests/details-backlog.js';
import type { StreamContext } from '../context.js';
import { DETAIL_COLUMNS } from '../../catalog/monitoring-records.js';
import type { ShapeSource } from '../shape/expected-shape.js';
import type { PassShape } from '../shape/pass-shape.js';
import { watchShape } from '../shape/watch-shape.js';
import { detailColumns } from './event-rows.js';

const BATCH = 100;

interface Fetched extends PendingDetail {
  detail: Record<string, unknown>;
}

export async function fetchPendingDetails(ctx: StreamContext): Promise<void> {
  const backlog = ctx.settings.monitoring.details ?? DEFAULT_DETAILS;
  if (backlog.maxPerRun === 0) return;
  const pending = await pendingDetails(ctx.store, backlog);
  if (pending.length === 0) return;
  ctx.logger.debug({ pending: pending.length }, 'fetching development details');
  // Watched under `monitoring-events/details`: a detail is a record of its own shape (documents, assets).
  await watchShape(
    ctx,
    DETAIL_SHAPE,
    async (shape) => {
      const outcome: DetailOutcome = { batch: new DetailBatch(ctx, shape), gone: [], stop: null };
      const limit = pLimit(ctx.settings.fanoutConcurrency);
      await Promise.all(pending.map((p) => limit(() => fetchOne(ctx, p, outcome))));
      if (outcome.stop === null) await outcome.batch.flush().catch((error: unknown) => (outcome.stop = error));
      await softDeleteGone(ctx, outcome.gone);
      if (outcome.stop !== null) throw outcome.stop;
      if (ctx.signal.aborted) ctx.stats.outcome = 'stopped';
      return false; // a backlog's share of the developments: a field gone is not judged from it
    },
    'details',
  );
}

/** A detail's typed fields: the columns it sets. */
const DETAIL_SHAPE: ShapeSource = { columns: DETAIL_COLUMNS, required: [] };

/** Where the run's fetches end up: written in batches, gone upstream (404), or the error that stops the stream. */
interface DetailOutcome {
  batch: DetailBatch;
  gone: string[];
  stop: unknown;
}

/** One detail: fetched (the body checked inside the client's retries) and batched; a 404 is gone, an auth failure or a spent budget stops the rest, any other error leaves it pending. */
async function fetchOne(ctx: StreamContext, p: PendingDetail, outcome: DetailOutcome): Promise<void> {
  const { stats } = ctx;
  if (ctx.signal.aborted || outcome.stop !== null) return;
  try {
    const { data: detail } = await ctx.client.get<{ data: object }>(MONITORING_PATHS.development(p.id), undefined, { check: dataObject });
    stats.details = (stats.details ?? 0) + 1;
    await outcome.batch.add({ ...p, detail: detail as Record<string, unknown> });
    ctx.progress.advance(ctx.stats.stream, stats);
  } catch (error) {
    const action = errorAction(error);
    if (action === 'skip') outcome.gone.push(p.id);
    // A change of shape in most of a batch (DS_DRIFT) fails the stream as a list's would.
    else if (action === 'stop' || error instanceof AuthError || error instanceof DriftError) outcome.stop ??= error;
    else {
      stats.errors++;
      ctx.logger.warn(
        { development: p.id, err: error instanceof Error ? error.message : String(error) },
        'development detail not fetched; it stays pending for the next run',
      );
    }
  }
}

/**
 * Fetched details written a batch per transaction (flushes run concurrently with the fetches). The shape
 * sees each detail first: one whose typed field cannot be taken without loss is quarantined and stays
 * pending; most of a batch so fails the stream; a typed field gone from a whole batch leaves its rows as
 * they were (pending) until confirmed.
 */
class DetailBatch {
  private fetched: Fetched[] = [];
  private rejected: { record: unknown; field: string; reason: string }[] = [];

  constructor(
    private readonly ctx: StreamContext,
    private readonly shape: PassShape,
  ) {}

  async add(detail: Fetched): Promise<void> {
    const problem = this.shape.take(detail.detail); // coerces in place
    if (problem) this.rejected.push({ record: detail.detail, ...problem });
    else this.fetched.push(detail);
    if (this.fetched.length + this.rejected.length >= BATCH) await this.flush();
  }

  async flush(): Promise<void> {
    const { ctx, shape, rejected } = this;
    const rows = this.fetched;
    this.fetched = [];
    this.rejected = [];
    shape.judgePage(rejected, rows.length + rejected.length);
    const held = shape.holdPage(rows.map((r) => r.detail)).length > 0;
    if (held) ctx.stats.heldRows = (ctx.stats.heldRows ?? 0) + rows.length;
    if (rejected.length > 0) {
      const now = ctx.now();
      await ctx.store.transaction(async (tx) => {
        for (const r of rejected) await tx.quarantine(ctx.stats.stream, `development detail: ${r.reason}`, r.record, now);
      });
      ctx.stats.errors += rejected.length;
    }
    if (rows.length > 0 && !held) await writeDetails(ctx, rows);
  }
}

/** Developments the service no longer has (404) are soft-deleted. */
async function softDeleteGone(ctx: StreamContext, gone: readonly string[]): Promise<void> {
  if (gone.length === 0) return;
  const [result] = await ctx.store.db
    .updateTable('monitoring_developments')
    .set({ deleted_at: ctx.now() })
    .where('id', 'in', gone)
    .where('deleted_at', 'is', null)
    .execute();
  ctx.stats.deleted += Number(result?.numUpdatedRows ?? 0n);
  ctx.logger.info({ developments: gone.length }, 'developments no longer served (404) were soft-deleted');
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
 * A detail carries its event's reference (`event: {id, slug, title, developmentCount}`), which goes stale
 * when the event changes (a development added). Refetching every detail would cost a request each, so
 * when an event changes its developments' stored details get the new reference, in the same transaction.
 */
export async function refreshDetailEventRefs(tx: StoreTx, events: readonly Record<string, unknown>[]): Promise<number> {
  if (events.length === 0) return 0;
  const byId = new Map(events.map((e) => [String(e.id), { id: e.id, slug: e.slug, title: e.title, developmentCount: e.developmentCount }]));
  const rows = await tx.db
    .selectFrom('monitoring_developments')
    .select(['id', 'event_id', 'raw'])
    .where('event_id', 'in', [...byId.keys()])
    .where('detail_fetched_at', 'is not', null)
    .execute();
  let refreshed = 0;
  for (const row of rows) {
    const raw = typeof row.raw === 'string' ? JSON.parse(row.raw) : row.raw;
    const ref = byId.get(String(row.event_id));
    if (!raw || typeof raw !== 'object' || !ref || JSON.stringify(raw.event) === JSON.stringify({ ...raw.event, ...ref })) continue;
    raw.event = { ...raw.event, ...ref };
    await tx.db
      .updateTable('monitoring_developments')
      .set({ raw: JSON.stringify(raw) })
      .where('id', '=', row.id)
      .execute();
    refreshed++;
  }
  return refreshed;
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
