// The monitoring-events stream: /monitoring/v2/events paged at 100, normalized into events, their assets,
// categories, subcategories and development summaries, then the pending development details.
// Incremental runs ask only for events whose startedAt is at or after the high-water mark (newest live
// startedAt) minus a lookback; a full pass (asked for, or every fullPassEveryHours) covers everything
// and soft-deletes what is no longer served. An event's children are rewritten only when it changed.
import { MONITORING_PATHS } from '../catalog/monitoring.js';
import type { Query } from '../catalog/types.js';
import { rowChanged } from '../store/changed-row.js';
import { keyString, type Row, type StoreTx } from '../store/types.js';
import { addWrites, type StreamContext } from '../sync/context.js';
import { recordsToRows } from '../sync/record-rows.js';
import { fetchPendingDetails, refreshDetailEventRefs } from './development-details.js';
import { EVENT_SPEC, eventChildren } from './event-rows.js';
import { boundMillis, eventFilters } from './filter-query.js';
import { monitoringPages } from './monitoring-pages.js';
import { fullPassDue, readMark, saveMark, windowFrom, type MarkName } from './pass-marks.js';

const STREAM = 'monitoring-events';
const FULL_PASS: MarkName = { stream: STREAM, part: 'full-pass' };
const CHILD_TABLES = ['monitoring_event_assets', 'monitoring_event_categories', 'monitoring_event_subcategories'] as const;

/** Saved after every page; null once the pass completed. */
interface EventsCheckpoint {
  pass: string;
  /** Lower bound of the window (RFC 3339), null for a complete pass. */
  start: string | null;
  page: number;
}

export async function syncEvents(ctx: StreamContext): Promise<void> {
  const { store, settings } = ctx;
  const filters = eventFilters(settings.monitoring.events, settings.monitoring.params);
  const saved = settings.mode === 'full' ? null : ((await store.getState(STREAM))?.checkpoint as EventsCheckpoint | null);
  const plan = saved ?? (await newPass(ctx));
  if (saved) ctx.logger.info({ page: saved.page, start: saved.start }, 'resuming the events pass from its checkpoint');
  ctx.logger.debug({ start: plan.start }, plan.start === null ? 'complete events pass' : 'windowed events pass');

  const query = windowQuery(filters, plan.start, settings.monitoring.params.events.start);
  const seen = new Set<string>();
  const expectedRows = await liveEventCount(ctx, plan.start);
  for await (const page of monitoringPages(ctx, { path: MONITORING_PATHS.events, query, startPage: plan.page, expectedRows })) {
    const checkpoint: EventsCheckpoint | null = page.last ? null : { ...plan, page: page.page + 1 };
    await writePage(ctx, page.records, seen, checkpoint);
    ctx.progress.advance(STREAM, ctx.stats);
    if (ctx.signal.aborted && !page.last) {
      ctx.stats.outcome = 'stopped';
      return;
    }
  }

  if (plan.start === null && plan.page === 1) await detectRemovals(ctx, seen);
  else if (plan.start === null) ctx.logger.info('pass resumed from a checkpoint: removals are detected by the next full pass');
  await fetchPendingDetails(ctx);
}

async function newPass(ctx: StreamContext): Promise<EventsCheckpoint> {
  const now = ctx.now();
  const full = fullPassDue(ctx.settings, await readMark(ctx.store, FULL_PASS), now);
  const row = (await ctx.store.db
    .selectFrom('monitoring_events')
    .select((eb) => eb.fn.max('started_at').as('hw'))
    .where('deleted_at', 'is', null)
    .executeTakeFirst()) as { hw: unknown } | undefined;
  return { pass: now, start: full ? null : windowFrom(ctx.settings, STREAM, row?.hw), page: 1 };
}

/** The configured filters with the window's lower bound; a configured `start` stays a floor under it. */
function windowQuery(filters: Query, start: string | null, name: string): Query {
  if (start === null) return filters;
  const floor = boundMillis(filters[name]);
  return floor !== null && floor >= Date.parse(start) ? filters : { ...filters, [name]: start.replace('.000Z', 'Z') };
}

async function liveEventCount(ctx: StreamContext, start: string | null): Promise<number> {
  let query = ctx.store.db
    .selectFrom('monitoring_events')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('deleted_at', 'is', null);
  if (start !== null) query = query.where('started_at', '>=', start);
  const row = (await query.executeTakeFirst()) as { n: number | string } | undefined;
  return Number(row?.n ?? 0);
}

/** One page: events upserted when changed; changed events get their children rewritten; one transaction. */
async function writePage(ctx: StreamContext, records: readonly unknown[], seen: Set<string>, checkpoint: EventsCheckpoint | null): Promise<void> {
  const { stats } = ctx;
  const { rows, rejected } = recordsToRows(records, EVENT_SPEC);
  const byId = new Map<string, Record<string, any>>();
  for (const record of records) {
    const id = (record as { id?: unknown } | null)?.id;
    if (typeof id === 'string') byId.set(id, record as Record<string, any>);
  }
  for (const row of rows) seen.add(keyString([row.id]));
  const now = ctx.now();
  const written = await ctx.store.transaction(async (tx) => {
    for (const r of rejected) await tx.quarantine(STREAM, r.reason, r.record, now);
    const changed = await changedEvents(tx, rows);
    const events = rows.length ? await tx.upsertChanged('monitoring_events', EVENT_SPEC.key, rows, now, STREAM) : null;
    const children = await writeChildren(tx, changed.map((id) => byId.get(id)!), now);
    await refreshDetailEventRefs(tx, changed.map((id) => byId.get(id)!));
    await tx.saveCheckpoint(STREAM, checkpoint);
    return { events, children };
  });
  stats.fetched += records.length;
  stats.errors += rejected.length + written.children.rejected + (written.events?.rejected ?? 0) + (written.children.developments?.rejected ?? 0);
  for (const counts of [written.events, written.children.developments]) addWrites(stats, counts);
  stats.deleted += written.children.deleted;
}

/** Ids of rows that are new, changed (hash of the record as served) or back after a removal. */
async function changedEvents(tx: StoreTx, rows: readonly Row[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const known = await tx.db
    .selectFrom('monitoring_events')
    .select(['id', 'row_hash', 'deleted_at'])
    .where('id', 'in', rows.map((r) => r.id))
    .execute();
  const stored = new Map(known.map((k) => [String(k.id), k]));
  return rows.filter((r) => rowChanged(stored.get(String(r.id)), r.row_hash)).map((r) => String(r.id));
}

async function writeChildren(tx: StoreTx, events: readonly Record<string, any>[], now: string) {
  const result = { developments: null as Awaited<ReturnType<StoreTx['upsertChanged']>> | null, deleted: 0, rejected: 0 };
  if (events.length === 0) return result;
  const ids = events.map((e) => String(e.id));
  const children = events.map(eventChildren);
  for (const table of CHILD_TABLES) await tx.db.deleteFrom(table).where('event_id', 'in', ids).execute();
  await tx.insertIgnore('monitoring_event_assets', ['event_id', 'asset_id'], children.flatMap((c) => c.assets));
  await tx.insertIgnore('monitoring_event_categories', ['event_id', 'category_slug'], children.flatMap((c) => c.categories));
  await tx.insertIgnore('monitoring_event_subcategories', ['event_id', 'subcategory_slug'], children.flatMap((c) => c.subcategories));

  const developments = children.flatMap((c) => c.developments.rows);
  for (const r of children.flatMap((c) => c.developments.rejected)) await tx.quarantine(STREAM, `development: ${r.reason}`, r.record, now);
  result.rejected = children.reduce((n, c) => n + c.developments.rejected.length, 0);
  if (developments.length) result.developments = await tx.upsertChanged('monitoring_developments', ['id'], developments, now, STREAM);
  // Developments an event no longer lists are gone with it.
  let gone = tx.db
    .updateTable('monitoring_developments')
    .set({ deleted_at: now })
    .where('event_id', 'in', ids)
    .where('deleted_at', 'is', null);
  if (developments.length) gone = gone.where('id', 'not in', developments.map((d) => d.id));
  const [removed] = await gone.execute();
  result.deleted = Number(removed?.numUpdatedRows ?? 0n);
  return result;
}

/** After a complete pass: events not served are soft-deleted, and so are their developments; their other children are deleted. */
async function detectRemovals(ctx: StreamContext, seen: ReadonlySet<string>): Promise<void> {
  const { store, stats } = ctx;
  const now = ctx.now();
  const deleted = await store.softDeleteMissing('monitoring_events', EVENT_SPEC.key, seen, {}, now);
  stats.deleted += deleted;
  await store.transaction(async (tx) => {
    const [orphans] = await tx.db
      .updateTable('monitoring_developments')
      .set({ deleted_at: now })
      .where('deleted_at', 'is', null)
      .where('event_id', 'in', tx.db.selectFrom('monitoring_events').select('id').where('deleted_at', 'is not', null))
      .execute();
    stats.deleted += Number(orphans?.numUpdatedRows ?? 0n);
    // The child tables have no deleted_at: a removed event's assets and categories go with it (a returning
    // event counts as changed, so its children are written again).
    const removed = tx.db.selectFrom('monitoring_events').select('id').where('deleted_at', 'is not', null);
    for (const table of CHILD_TABLES) await tx.db.deleteFrom(table).where('event_id', 'in', removed).execute();
    await saveMark(tx, FULL_PASS, { fullAt: now, highWater: null });
  });
}
