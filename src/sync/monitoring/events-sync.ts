// The monitoring-events stream: /monitoring/v2/events paged at 100, normalized into events, their assets,
// categories, subcategories and development summaries, then the pending development details.
// Incremental runs ask only for events whose startedAt is at or after the high-water mark (newest live
// startedAt) minus a lookback; a full pass (asked for, or every fullPassEveryHours) covers everything
// and soft-deletes what is no longer served. An event's children are rewritten only when it changed.
import { MONITORING_PATHS } from '../../catalog/monitoring.js';
import { developmentSummary, eventRecord } from '../../catalog/monitoring-records.js';
import type { PageNumberSpec, Query } from '../../catalog/types.js';
import { rowChanged } from '../../store/changed-row.js';
import { keyString, type Row, type StoreTx } from '../../store/types.js';
import { addWrites, type StreamContext } from '../context.js';
import { recordsToRows, servedKey, type Mapped } from '../record-rows.js';
import type { PassShape } from '../shape/pass-shape.js';
import { watchShape } from '../shape/watch-shape.js';
import { nothingWritten, writeMapped, type Written } from '../write-records.js';
import { fetchPendingDetails, refreshDetailEventRefs } from './development-details.js';
import { EVENT_ITEMS, eventChildren } from './event-rows.js';
import { eventFilters } from '../../catalog/configured-filters.js';
import { windowFrom } from '../../requests/date-window.js';
import { eventsToReread } from '../../requests/event-rereads.js';
import { boundMillis, presentLimit, servicePresent } from '../../requests/time-bound.js';
import { rereadEvents } from './event-rereads.js';
import { monitoringPages } from './monitoring-pages.js';
import { PassKeys } from '../deletion-evidence.js';
import { judgeDeletions } from '../deletion-gate.js';
import { type KeyedRows, LiveKeys, settleArrivals } from '../renamed-keys.js';
import { fullPassDue, readMark, saveMark, type MarkName } from './pass-marks.js';

/** The stream the events are read, checkpointed and quarantined under: the catalog's. */
const STREAM = eventRecord.name;
const FULL_PASS: MarkName = { stream: STREAM, part: 'full-pass' };
const PLACE = { stream: STREAM, variant: '' };
const EVENT_ROWS: KeyedRows = { table: eventRecord.table, key: eventRecord.key, scope: {} };
const CHILD_TABLES = ['monitoring_event_assets', 'monitoring_event_categories', 'monitoring_event_subcategories'] as const;

/** Saved after every page; null once the pass completed. */
interface EventsCheckpoint {
  pass: string;
  /** Lower bound of the window (RFC 3339), null for a complete pass. */
  start: string | null;
  page: number;
}

export async function syncEvents(ctx: StreamContext, paginator: PageNumberSpec): Promise<void> {
  await watchShape(ctx, { ...eventRecord, items: EVENT_ITEMS }, (shape) => eventsPass(ctx, paginator, shape));
}

/** The pass; true when it read every event (a complete pass from page 1). */
async function eventsPass(ctx: StreamContext, paginator: PageNumberSpec, shape: PassShape): Promise<boolean> {
  const { store, settings } = ctx;
  const filters = eventFilters(settings.monitoring.events, settings.monitoring.params);
  const saved = settings.mode === 'full' ? null : ((await store.getState(STREAM))?.checkpoint as EventsCheckpoint | null);
  // Where this run reads from: the interrupted pass's next page, or page 1 of a new pass.
  const resumeAt = saved ?? (await newPass(ctx));
  if (saved) ctx.logger.info({ page: saved.page, start: saved.start }, 'resuming the events pass from its checkpoint');
  ctx.logger.debug({ start: resumeAt.start }, resumeAt.start === null ? 'complete events pass' : 'windowed events pass');

  const query = windowQuery(filters, resumeAt.start, settings.monitoring.params.events.start);
  const keys = new PassKeys();
  const live = new LiveKeys(store, PLACE, EVENT_ROWS);
  // A first pass resumed holds only the pages written before it stopped: the list's length is unknown.
  const firstPassResumed = !!saved && saved.start === null && (await readMark(store, FULL_PASS)).fullAt === null;
  const expectedRows = firstPassResumed ? 0 : await liveEventCount(ctx, resumeAt.start);
  const list = { path: MONITORING_PATHS.events, paginator, query, startPage: resumeAt.page, expectedRows };
  for await (const page of monitoringPages(ctx, list)) {
    const checkpoint: EventsCheckpoint | null = page.last ? null : { ...resumeAt, page: page.page + 1 };
    keys.page(page.records.length, page.total);
    await writePage(ctx, page.records, keys, checkpoint, shape, live);
    ctx.progress.advance(STREAM, ctx.stats);
    if (ctx.signal.aborted && !page.last) {
      ctx.stats.outcome = 'stopped';
      return false;
    }
  }

  if (resumeAt.start !== null) await rereadNamedEvents(ctx, paginator, resumeAt.start, keys.seen, shape, live);
  if (resumeAt.start === null && resumeAt.page === 1) await detectRemovals(ctx, keys, shape);
  else if (resumeAt.start === null) {
    // The same complete pass, resumed (a quota or a signal stopped it): every event has now been read, so
    // it is the day's full pass, not one to start again from page 1; only its removals wait for the next.
    ctx.logger.info('complete pass resumed from a checkpoint and finished: removals are detected by the next full pass');
    await store.transaction((tx) => saveMark(tx, FULL_PASS, { fullAt: resumeAt.pass, highWater: null }));
  }
  await fetchPendingDetails(ctx);
  return resumeAt.start === null && resumeAt.page === 1;
}

/** An incremental pass also re-reads, by id, the older events webhooks said changed (src/requests/event-rereads.ts). */
async function rereadNamedEvents(
  ctx: StreamContext,
  paginator: PageNumberSpec,
  windowStart: string,
  seen: Set<string>,
  shape: PassShape,
  live: LiveKeys,
): Promise<void> {
  const ids = await eventsToReread(ctx.store, STREAM, windowStart);
  if (ids.length === 0) return;
  await rereadEvents(ctx, paginator, ids, (records) => writePage(ctx, records, seen, null, shape, live));
  ctx.logger.debug({ events: ids.length }, 'events named by webhooks re-read');
}

async function newPass(ctx: StreamContext): Promise<EventsCheckpoint> {
  const now = ctx.now();
  const full = fullPassDue(ctx.settings, await readMark(ctx.store, FULL_PASS), now);
  const row = (await ctx.store.db
    .selectFrom('monitoring_events')
    .select((eb) => eb.fn.max('started_at').as('hw'))
    .where('deleted_at', 'is', null)
    // An event dated in the far future must not move the window past every real one.
    .where('started_at', '<=', presentLimit(servicePresent(ctx.client)).toISOString())
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

/**
 * One page: events upserted when changed; changed events get their children rewritten; one transaction.
 * With `live`, an event under a new id that renames a live one in case or spacing waits (renamed-keys.ts).
 */
async function writePage(
  ctx: StreamContext,
  records: readonly unknown[],
  seen: { add(key: string): unknown },
  checkpoint: EventsCheckpoint | null,
  shape: PassShape,
  live: LiveKeys | null,
): Promise<void> {
  const { stats } = ctx;
  const mapped = recordsToRows(records, eventRecord, undefined, shape);
  shape.judgePage(mapped.rejected, records.length);
  const byId = new Map<string, Record<string, any>>();
  for (const record of records) {
    const id = (record as { id?: unknown } | null)?.id;
    if (typeof id === 'string') byId.set(id, record as Record<string, any>);
  }
  for (const row of mapped.rows) seen.add(keyString([row.id]));
  // A quarantined event was served: no deletion is held or made because of it.
  for (const { record } of mapped.rejected) {
    const key = servedKey(record, eventRecord);
    if (key !== null) seen.add(key);
  }
  const now = ctx.now();
  const written = nothingWritten([], 0);
  if (shape.holdPage(records).length > 0) {
    stats.heldRows = (stats.heldRows ?? 0) + mapped.rows.length;
    mapped.rows = [];
  }
  const removedDevelopments = await ctx.store.transaction(async (tx) => {
    if (live) mapped.rows = await live.divert(tx, eventRecord.key, mapped.rows, now);
    const changed = (await changedEvents(tx, mapped.rows)).map((id) => byId.get(id)!);
    await writeMapped(tx, eventRecord, mapped, now, written);
    const removed = await writeChildren(tx, changed, now, written);
    await refreshDetailEventRefs(tx, changed);
    await tx.saveCheckpoint(STREAM, checkpoint);
    return removed;
  });
  stats.fetched += records.length;
  stats.errors += written.rejected;
  addWrites(stats, written.counts);
  stats.deleted += removedDevelopments;
}

/** Ids of rows that are new, changed (hash of the record as served) or back after a removal. */
async function changedEvents(tx: StoreTx, rows: readonly Row[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const known = await tx.db
    .selectFrom('monitoring_events')
    .select(['id', 'row_hash', 'deleted_at'])
    .where(
      'id',
      'in',
      rows.map((r) => r.id),
    )
    .execute();
  const stored = new Map(known.map((k) => [String(k.id), k]));
  return rows.filter((r) => rowChanged(stored.get(String(r.id)), r.row_hash)).map((r) => String(r.id));
}

/** A changed event's children rewritten: its assets and categories replaced, its developments upserted (those it no longer lists soft-deleted, counted in the result). */
async function writeChildren(tx: StoreTx, events: readonly Record<string, any>[], now: string, written: Written): Promise<number> {
  if (events.length === 0) return 0;
  const ids = events.map((e) => String(e.id));
  const children = events.map(eventChildren);
  for (const table of CHILD_TABLES) await tx.db.deleteFrom(table).where('event_id', 'in', ids).execute();
  await tx.insertIgnore(
    'monitoring_event_assets',
    ['event_id', 'asset_id'],
    children.flatMap((c) => c.assets),
  );
  await tx.insertIgnore(
    'monitoring_event_categories',
    ['event_id', 'category_slug'],
    children.flatMap((c) => c.categories),
  );
  await tx.insertIgnore(
    'monitoring_event_subcategories',
    ['event_id', 'subcategory_slug'],
    children.flatMap((c) => c.subcategories),
  );

  const developments: Mapped = {
    rows: children.flatMap((c) => c.developments.rows),
    rejected: children.flatMap((c) => c.developments.rejected),
  };
  await writeMapped(tx, developmentSummary, developments, now, written);
  // Developments an event no longer lists are gone with it.
  let gone = tx.db
    .updateTable('monitoring_developments')
    .set({ deleted_at: now })
    .where('event_id', 'in', ids)
    .where('deleted_at', 'is', null);
  if (developments.rows.length)
    gone = gone.where(
      'id',
      'not in',
      developments.rows.map((d) => d.id),
    );
  const [removed] = await gone.execute();
  return Number(removed?.numUpdatedRows ?? 0n);
}

/**
 * After a complete pass: events not served are soft-deleted (when the pass is evidence enough, see
 * deletion-gate.ts), and so are their developments; their other children are deleted.
 */
async function detectRemovals(ctx: StreamContext, keys: PassKeys, shape: PassShape): Promise<void> {
  const { store, stats } = ctx;
  const now = ctx.now();
  const { seen } = keys;
  const candidate = { ...PLACE, ...EVENT_ROWS, seen };
  const verdict = await judgeDeletions(ctx, { ...candidate, doubt: async () => keys.doubt() });
  if (verdict.notice) {
    ctx.logger.warn({ notice: verdict.notice }, 'deletions held back or confirmed');
    stats.notice = verdict.notice;
  }
  stats.held = verdict.keep.size;
  stats.deleted += await store.softDeleteMissing(eventRecord.table, eventRecord.key, new Set([...seen, ...verdict.keep]), {}, now);
  await settleArrivals(store, PLACE, EVENT_ROWS, seen, (records) => writePage(ctx, records, { add: () => {} }, null, shape, null));
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
