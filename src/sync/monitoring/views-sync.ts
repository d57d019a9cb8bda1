// The monitoring-views stream and `backfill alerts`: each configured view (by id or slug-with-id-prefix;
// there is no list endpoint) is mirrored, and the developments of its matching events that the view's
// own predicates accept fill alert_history, one alert per (view, development) as a webhook brings them
// (reconstruct-alerts.ts). An alert a webhook brought first is marked as reconstructed too.
// A view the service does not know is an error that names it; the other views still sync.
import { MONITORING_PATHS } from '../../catalog/monitoring.js';
import { viewRecord } from '../../catalog/monitoring-records.js';
import type { PageNumberSpec, ViewPassOptions } from '../../catalog/types.js';
import { AuthError, isClientError, NotFoundError } from '../../client/index.js';
import { ConfigError, errorAction } from '../../errors.js';
import type { Row } from '../../store/types.js';
import { addWrites, type StreamContext } from '../context.js';
import { writeRecords } from '../write-records.js';
import { windowFrom } from '../../requests/date-window.js';
import { boundMillis, servicePresent, withinPresent } from '../../requests/time-bound.js';
import { monitoringPages } from './monitoring-pages.js';
import { reconstructAlerts, writeReconstructedAlerts, type PageAlerts } from './reconstruct-alerts.js';
import { completeSetAside } from './complete-set-aside.js';
import { fullPassDue, readMark, saveMark, type MarkName, type PassMark } from './pass-marks.js';

/**
 * Every record a views pass read (a view, a matching event, or one without an id) and every development
 * of those events: an alert (new or already known), excluded by the view's predicates, or before `since`.
 */
export interface ViewMatchCounts {
  views: number;
  events: number;
  newAlerts: number;
  known: number;
  excluded: number;
  beforeSince: number;
  unusable: number;
  /** Webhook deliveries set aside (another shape) whose alert the pass brought (webhook_set_aside). */
  completed: number;
}

export function emptyViewCounts(): ViewMatchCounts {
  return { views: 0, events: 0, newAlerts: 0, known: 0, excluded: 0, beforeSince: 0, unusable: 0, completed: 0 };
}

/** The stream the views' pass marks are kept under: the catalog's. */
const STREAM = viewRecord.name;

/** The pass over the views, and its account of every record read (what `backfill alerts` reports). */
export async function syncViews(ctx: StreamContext, paginator: PageNumberSpec, opts: ViewPassOptions): Promise<ViewMatchCounts> {
  const counts = emptyViewCounts();
  const tokens = opts.views ?? ctx.settings.monitoring.views;
  if (tokens.length === 0) {
    ctx.logger.debug('no monitoring view configured (DS_MONITORING_VIEWS or monitoring.views): nothing to do');
    return counts;
  }
  const since = opts.since === undefined ? null : boundMillis(opts.since);
  if (opts.since !== undefined && since === null) {
    throw new ConfigError(`since must be RFC 3339, YYYY-MM-DD or Unix seconds; got "${opts.since}"`);
  }
  const failures: string[] = [];
  for (const token of tokens) {
    if (ctx.signal.aborted) {
      ctx.stats.outcome = 'stopped';
      return counts;
    }
    const view = await fetchView(ctx, token, failures, opts.source ?? 'DS_MONITORING_VIEWS or monitoring.views');
    if (view) await syncMatches(ctx, paginator, view, { full: opts.full === true, since }, counts);
  }
  counts.completed = await completeSetAside(ctx.store, ctx.now());
  if (counts.completed > 0) ctx.logger.info({ deliveries: counts.completed }, 'webhook deliveries set aside completed by their alerts');
  if (failures.length > 0) ctx.stats.error = failures.join('; ');
  return counts;
}

/** The view upserted when changed; null (with the failure recorded) when the service does not serve it. */
async function fetchView(ctx: StreamContext, token: string, failures: string[], source: string): Promise<Row | null> {
  const { stats } = ctx;
  let body: { data?: unknown };
  try {
    body = await ctx.client.get<{ data?: unknown }>(MONITORING_PATHS.view(token));
  } catch (error) {
    if (error instanceof AuthError || !isClientError(error) || errorAction(error) === 'stop') throw error;
    const message =
      error instanceof NotFoundError
        ? `unknown monitoring view "${token}": check ${source} (a view UUID or its slug-with-id-prefix)`
        : `monitoring view "${token}" failed: ${error.message}`;
    failures.push(message);
    stats.errors++;
    // Said once, by whoever reports the stream's error (the summary, backfill, the daemon's job line).
    ctx.logger.debug({ view: token }, message);
    return null;
  }
  const record = body?.data;
  const now = ctx.now();
  const written = await ctx.store.transaction((tx) => writeRecords(tx, viewRecord, [record], now));
  stats.fetched++;
  if (written.keys.length === 0) {
    stats.errors++;
    failures.push(`monitoring view "${token}": the response holds no view record`);
    return null;
  }
  addWrites(stats, written.counts);
  return record as Row;
}

/**
 * The view's matches, newest first. A full pass reads them all; `since` stops below that bound; an
 * incremental run stops below the view's high-water mark minus the lookback. The list is ordered by
 * the events' start, so a development added later to an older event waits for a full pass.
 */
async function syncMatches(
  ctx: StreamContext,
  paginator: PageNumberSpec,
  view: Row,
  { full, since }: { full: boolean; since: number | null },
  counts: ViewMatchCounts,
): Promise<void> {
  counts.views++;
  const viewId = String(view.id);
  const { stats, store } = ctx;
  const markKey: MarkName = { stream: STREAM, part: viewId };
  const mark = await readMark(store, markKey);
  const complete = since === null && (full || fullPassDue(ctx.settings, mark, ctx.now()));
  // A mark an older release let pass the present heals: it is read as the present at most.
  const present = servicePresent(ctx.client);
  let highWater = withinPresent(boundMillis(mark.highWater), present);
  const markIso = highWater === null ? null : new Date(highWater).toISOString();
  const from = since ?? (complete ? null : boundMillis(windowFrom(ctx.settings, STREAM, markIso)));
  // The pass's page guard: bounded by the list's size at the last complete pass (unknown: the ceiling).
  const expectedRows = complete ? (mark.rows ?? 0) : 0;
  let rows = 0;
  const names = ctx.settings.monitoring.params.viewEvents;

  const list = { path: MONITORING_PATHS.viewEvents(viewId), paginator, query: {}, expectedRows, names };
  for await (const page of monitoringPages(ctx, list)) {
    rows += page.records.length;
    const events = page.records.filter((r): r is Record<string, any> => typeof (r as { id?: unknown } | null)?.id === 'string');
    const started = events.map((e) => boundMillis(e.startedAt));
    // A match dated in the far future is kept, but the mark stays within the present.
    for (const t of started) if (t !== null && (highWater === null || t > highWater)) highWater = withinPresent(t, present);
    const found = reconstructAlerts(view, events, since, ctx.now());
    const { alerts } = found;
    const inserted = alerts.length ? await store.transaction((tx) => writeReconstructedAlerts(tx, viewId, alerts)) : 0;
    countPage(ctx, counts, { read: page.records.length, usable: events.length, found, inserted });
    ctx.progress.advance(STREAM, stats);
    const oldest = Math.min(...started.map((t) => t ?? Infinity));
    if (ctx.signal.aborted && !page.last) {
      stats.outcome = 'stopped';
      return;
    }
    if (from !== null && oldest < from) break;
  }
  const next: PassMark = {
    fullAt: complete ? ctx.now() : mark.fullAt,
    highWater: highWater === null ? null : new Date(highWater).toISOString(),
    ...(complete ? { rows } : {}),
  };
  await store.transaction((tx) => saveMark(tx, markKey, next));
}

/** A page's matches into the stream's stats and the caller's counts (every record and development accounted for). */
function countPage(
  ctx: StreamContext,
  counts: ViewMatchCounts,
  page: { read: number; usable: number; found: PageAlerts; inserted: number },
): void {
  const { stats } = ctx;
  const matched = page.found.alerts.length;
  stats.fetched += page.read;
  stats.errors += page.read - page.usable;
  stats.inserted += page.inserted;
  stats.unchanged += matched - page.inserted;
  counts.events += page.usable;
  counts.newAlerts += page.inserted;
  counts.known += matched - page.inserted;
  counts.excluded += page.found.excluded;
  counts.beforeSince += page.found.beforeSince;
  counts.unusable += page.read - page.usable;
}
