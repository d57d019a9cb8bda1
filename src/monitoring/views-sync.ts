// The monitoring-views stream and `backfill alerts`: each configured view (by id or slug-with-id-prefix;
// there is no list endpoint) is mirrored, and its matching events fill alert_history keyed by
// (view, event), insert-only, beside what the webhook receiver inserts. A view the service does not
// know is an error that names it; the other views still sync.
import { MONITORING_PATHS } from '../catalog/monitoring.js';
import { AuthError, isClientError, NotFoundError } from '../client/index.js';
import { ConfigError, errorAction } from '../errors.js';
import type { Row } from '../store/types.js';
import { addWrites, type StreamContext } from '../sync/context.js';
import { recordsToRows } from '../sync/record-rows.js';
import { boundMillis } from './filter-query.js';
import { monitoringPages } from './monitoring-pages.js';
import { fullPassDue, readMark, saveMark, windowFrom, type MarkName, type PassMark } from './pass-marks.js';

export interface ViewSyncOptions {
  /** Views to cover instead of the configured ones. */
  views?: readonly string[];
  /** Only matches whose event started at or after this bound (RFC 3339, YYYY-MM-DD or Unix seconds). */
  since?: string;
  /** Page through every match (the backfill); otherwise full passes follow fullPassEveryHours. */
  full?: boolean;
  /** Where `views` came from, for the message about an unknown one (default: the configuration's names). */
  source?: string;
  /** Filled as the records are read, so a caller can account for every one. */
  tally?: ViewTally;
}

/** Every record read: a view, or a match that is new, already known, before `since`, or unusable (no id). */
export interface ViewTally {
  views: number;
  newAlerts: number;
  known: number;
  beforeSince: number;
  unusable: number;
}

export function emptyViewTally(): ViewTally {
  return { views: 0, newAlerts: 0, known: 0, beforeSince: 0, unusable: 0 };
}

const STREAM = 'monitoring-views';
const VIEW = {
  key: ['id'],
  required: ['id'],
  columns: {
    id: 'id',
    slug: 'slug',
    name: 'name',
    configuration_type: 'configurationType',
    team_shared: 'teamShared',
    is_owner: 'isOwner',
    match_count_24h: 'matchCount24h',
    last_match_at: 'lastMatchAt',
    evaluation_start_at: 'evaluationStartAt',
    asset_ids: 'assetIds',
    asset_sectors: 'assetSectors',
    asset_subsectors: 'assetSubsectors',
    asset_pre_tge: 'assetPreTge',
    verified: 'verified',
    actionable: 'actionable',
    governance: 'governance',
    asset_ecosystem_network_ids: 'assetEcosystemNetworkIds',
    intel_categories: 'intelCategories',
    intel_subcategories: 'intelSubcategories',
    minimum_importance: 'minimumImportance',
  },
} as const;

export async function syncViews(ctx: StreamContext, opts: ViewSyncOptions): Promise<void> {
  const tokens = opts.views ?? ctx.settings.monitoring.views;
  if (tokens.length === 0) {
    ctx.logger.debug('no monitoring view configured (DS_MONITORING_VIEWS or monitoring.views): nothing to do');
    return;
  }
  const since = opts.since === undefined ? null : boundMillis(opts.since);
  if (opts.since !== undefined && since === null) {
    throw new ConfigError(`since must be RFC 3339, YYYY-MM-DD or Unix seconds; got "${opts.since}"`);
  }
  const failures: string[] = [];
  for (const token of tokens) {
    if (ctx.signal.aborted) {
      ctx.stats.outcome = 'stopped';
      return;
    }
    const view = await fetchView(ctx, token, failures, opts.source ?? 'DS_MONITORING_VIEWS or monitoring.views');
    if (view) await syncMatches(ctx, String(view.id), typeof view.name === 'string' ? view.name : null, opts.full === true, since, opts.tally ?? emptyViewTally());
  }
  if (failures.length > 0) ctx.stats.error = failures.join('; ');
}

/** The view upserted when changed; null (with the failure recorded) when the service does not serve it. */
async function fetchView(ctx: StreamContext, token: string, failures: string[], source: string): Promise<Row | null> {
  const { stats } = ctx;
  let body: { data?: unknown };
  try {
    stats.requests++;
    body = await ctx.client.get<{ data?: unknown }>(MONITORING_PATHS.view(token));
  } catch (error) {
    if (error instanceof AuthError || !isClientError(error) || errorAction(error) === 'stop') throw error;
    const message = error instanceof NotFoundError
      ? `unknown monitoring view "${token}": check ${source} (a view UUID or its slug-with-id-prefix)`
      : `monitoring view "${token}" failed: ${error.message}`;
    failures.push(message);
    stats.errors++;
    // Said once, by whoever reports the stream's error (the summary, backfill, the daemon's job line).
    ctx.logger.debug({ view: token }, message);
    return null;
  }
  const { rows, rejected } = recordsToRows([body?.data], VIEW);
  const now = ctx.now();
  const counts = await ctx.store.transaction(async (tx) => {
    for (const r of rejected) await tx.quarantine(STREAM, `view "${token}": ${r.reason}`, r.record, now);
    return rows.length ? tx.upsertChanged('monitoring_views', VIEW.key, rows, now) : null;
  });
  stats.fetched++;
  if (!counts) {
    stats.errors++;
    failures.push(`monitoring view "${token}": the response holds no view record`);
    return null;
  }
  addWrites(stats, counts);
  return rows[0];
}

/**
 * The view's matches, newest first. A full pass reads them all; `since` stops below that bound; an
 * incremental run stops below the view's high-water mark minus the lookback.
 */
async function syncMatches(ctx: StreamContext, viewId: string, viewName: string | null, full: boolean, since: number | null, tally: ViewTally): Promise<void> {
  tally.views++;
  const { stats, store } = ctx;
  const markKey: MarkName = { stream: STREAM, part: viewId };
  const mark = await readMark(store, markKey);
  const complete = since === null && (full || fullPassDue(ctx.settings, mark, ctx.now()));
  const from = since ?? (complete ? null : boundMillis(windowFrom(ctx.settings, STREAM, mark.highWater)));
  let highWater = boundMillis(mark.highWater);
  const expectedRows = complete ? await knownMatches(ctx, viewId) : 0;
  const names = ctx.settings.monitoring.params.viewEvents;

  for await (const page of monitoringPages(ctx, { path: MONITORING_PATHS.viewEvents(viewId), query: {}, expectedRows, paging: names })) {
    const events = page.records.filter((r): r is Record<string, any> => typeof (r as { id?: unknown } | null)?.id === 'string');
    const started = events.map((e) => boundMillis(e.startedAt));
    for (const t of started) if (t !== null && (highWater === null || t > highWater)) highWater = t;
    const now = ctx.now();
    const alerts = events
      .filter((_, i) => since === null || (started[i] ?? 0) >= since)
      .map((e, i) => {
        const latest = latestDevelopment(e);
        // The match happened when its development started (the event's start when it has none), not now.
        const matched = latest?.t ?? started[i];
        return {
          view_id: viewId, event_id: e.id, first_seen_at: now, source: 'backfill', delivery_id: null, development_id: latest?.id ?? null,
          matched_at: matched === null || matched === undefined ? null : new Date(matched).toISOString(), view_name: viewName,
        };
      });
    const inserted = alerts.length ? await store.transaction((tx) => tx.insertIgnore('alert_history', ['view_id', 'event_id'], alerts)) : 0;
    stats.fetched += page.records.length;
    stats.errors += page.records.length - events.length;
    stats.inserted += inserted;
    stats.unchanged += alerts.length - inserted;
    Object.assign(tally, {
      newAlerts: tally.newAlerts + inserted, known: tally.known + alerts.length - inserted,
      beforeSince: tally.beforeSince + events.length - alerts.length, unusable: tally.unusable + page.records.length - events.length,
    });
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
  };
  await store.transaction((tx) => saveMark(tx, markKey, next));
}

/** The development that would have raised the alert: the event's newest, with its start (null when unknown). */
function latestDevelopment(event: Record<string, any>): { id: string; t: number | null } | null {
  const developments: any[] = Array.isArray(event.developments) ? event.developments : [];
  let best: { id: string; t: number } | null = null;
  for (const d of developments) {
    const t = boundMillis(d?.startedAt) ?? -Infinity;
    if (typeof d?.id === 'string' && (best === null || t > best.t)) best = { id: d.id, t };
  }
  return best && { id: best.id, t: Number.isFinite(best.t) ? best.t : null };
}

async function knownMatches(ctx: StreamContext, viewId: string): Promise<number> {
  const row = (await ctx.store.db
    .selectFrom('alert_history')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('view_id', '=', viewId)
    .executeTakeFirst()) as { n: number | string } | undefined;
  return Number(row?.n ?? 0);
}
