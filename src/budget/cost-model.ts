// What one run of a stream costs in requests, from the mirror's own sizes, or from the real service's
// published sizes for what the mirror does not hold yet (then marked as an estimate). `intervalDays`
// is the time since the stream's previous run: the growth a date window reads on top of its lookback.
import { apiFamilyOf } from '../client/index.js';
import { monitoringPaginator } from '../catalog/monitoring.js';
import type { ListStream, StreamDef } from '../catalog/types.js';
import { windowFrom, windowStart } from '../requests/date-window.js';
import { detailsBacklog, DEFAULT_DETAILS } from '../requests/details-backlog.js';
import { fanoutPath, selectionFor, selectParents } from '../requests/fanout-parents.js';
import { pagesFor } from '../paging/paginator.js';
import { listPaginator, readAheadExtra } from '../requests/list-requests.js';
import { rowsExpected } from '../requests/list-size.js';
import type { DetailsBacklog, SyncSettings } from '../requests/run-settings.js';
import { boundMillis } from '../requests/time-bound.js';
import type { Store } from '../store/types.js';
import { PUBLISHED_MONITORING, PUBLISHED_ROWS, PUBLISHED_ROWS_PER_DAY } from './published-sizes.js';
import { nextRereadRequests, rereadRequestsPerRun, webhookRates, type WebhookRates } from './webhook-costs.js';
import { quotaFamilyOf, type QuotaFamily } from './quotas.js';

export interface StreamCost {
  stream: string;
  family: QuotaFamily;
  requests: number;
  /** Some size came from the published real sizes, not from the mirror. */
  estimated: boolean;
  /** A fan-out's pages per parent are unknown: at least this many. */
  atLeast: boolean;
  /** Of `requests`, those a first read may make past a list's end while reading ahead (src/requests/list-requests.ts). */
  readAhead?: number;
}

const DAY_MS = 86_400_000;
const MONITORING_PAGE_SIZE = monitoringPaginator.pageSize;

export function familyOf(stream: StreamDef): QuotaFamily {
  const path = stream.kind === 'fanout' ? fanoutPath(stream, { idOrSlug: 'x' }) : stream.path;
  return quotaFamilyOf(apiFamilyOf(path.split('?')[0], stream.kind === 'list' && stream.keyless));
}

export async function runCost(store: Store, settings: SyncSettings, stream: StreamDef, intervalDays = 0): Promise<StreamCost> {
  const base = { stream: stream.name, family: familyOf(stream), estimated: false, atLeast: false };
  if (stream.kind === 'list') return { ...base, ...(await listCost(store, settings, stream, intervalDays)) };
  if (stream.kind === 'fanout') {
    const parents = await selectParents(store, stream, selectionFor(settings, stream));
    return { ...base, requests: parents.length, atLeast: stream.paginator !== undefined };
  }
  switch (stream.runner) {
    case 'monitoring-events':
      return { ...base, ...(await eventsCost(store, settings, intervalDays)) };
    case 'monitoring-views':
      // Each view, then its matches since the last pass: a page, more on its daily full pass.
      return { ...base, requests: settings.monitoring.views.length * 2 };
  }
}

/**
 * Where the next run resumes an interrupted pass of a list, per variant: its next page (null: read to its
 * end), from the checkpoint the run reads (list-checkpoint.ts). None on a full run, which starts again at
 * page 1, nor for a scheduled run's steady cost (intervalDays > 0).
 */
export async function resumePoints(
  store: Store,
  settings: SyncSettings,
  stream: StreamDef,
  intervalDays = 0,
): Promise<{ next: Record<string, number | null>; windowStart: string | null } | null> {
  if (stream.kind !== 'list' || intervalDays > 0 || settings.mode === 'full') return null;
  const saved = (await store.getState(stream.name))?.checkpoint as {
    next?: Record<string, number | null>;
    windowStart?: string | null;
  } | null;
  return saved?.next ? { next: saved.next, windowStart: saved.windowStart ?? null } : null;
}

/** A variant's pages still to read: all of them, none once complete, or from the page it resumes at. */
function pagesLeft(pages: number, next: number | null | undefined): number {
  if (next === undefined) return pages;
  return next === null ? 0 : Math.max(1, pages - (next - 1));
}

async function listCost(store: Store, settings: SyncSettings, stream: ListStream, intervalDays: number) {
  const paginator = listPaginator(stream, settings);
  const { lastPage } = paginator;
  const variants = stream.variants ?? [{ name: '', scope: {} }];
  const resumed = await resumePoints(store, settings, stream, intervalDays);
  const left = (variant: string, pages: number) => pagesLeft(pages, resumed?.next[variant]);
  if (lastPage !== undefined) return { requests: variants.reduce((n, v) => n + left(v.name, lastPage), 0), estimated: false };
  // A pass resumed reads as it began: a window's pages, or (begun with no window) the whole list's.
  if (stream.window && settings.mode !== 'full' && (resumed === null || resumed.windowStart !== null)) {
    const inWindow = await windowRows(store, settings, stream);
    const perDay = PUBLISHED_ROWS_PER_DAY[stream.name] ?? 0;
    if (inWindow !== null)
      return { requests: left(variants[0]!.name, paginator.pagesFor(inWindow + perDay * intervalDays)), estimated: false };
    // Not mirrored yet: the next run reads everything; a scheduled run, once it has, only its window.
    if (intervalDays > 0) {
      const lookback = settings.lookbackDays[stream.name] ?? stream.window.defaultLookbackDays;
      return { requests: paginator.pagesFor(perDay * (lookback + intervalDays)), estimated: true };
    }
  }
  let requests = 0;
  let readAhead = 0;
  let estimated = false;
  for (const variant of variants) {
    // The pages last read; a date-window list reads only its window's pages, so also its live rows
    // (not for others: the assets-top tier fills the assets table without a complete pass).
    let rows = await rowsExpected(store, stream, variant);
    if (rows === 0) {
      const published = PUBLISHED_ROWS[stream.name];
      rows = (typeof published === 'number' ? published : published?.[variant.name]) ?? 0;
      estimated = true;
      // The next run reads ahead a list never read (at most this many past its end once its first page
      // is full); a scheduled run's steady cost (intervalDays > 0) comes after that first read.
      if (intervalDays === 0) readAhead += readAheadExtra(stream, settings);
    }
    requests += left(variant.name, paginator.pagesFor(rows));
  }
  return { requests: requests + readAhead, estimated, readAhead };
}

/** Rows an incremental window reads now (its lookback), or null when the table is empty (a first, complete read). */
async function windowRows(store: Store, settings: SyncSettings, stream: ListStream): Promise<number | null> {
  const from = await windowStart(store, settings, stream);
  if (from === null) return null;
  const row = (await store.db
    .selectFrom(stream.table)
    .select((eb) => eb.fn.countAll().as('n'))
    .where('deleted_at', 'is', null)
    .where(stream.window!.field, '>=', from)
    .executeTakeFirst()) as { n: unknown } | undefined;
  return Number(row?.n ?? 0);
}

/**
 * Event pages (the window, and a share of the periodic full pass), the re-reads of older events webhooks
 * named, and the run's development details (those webhooks named first).
 */
async function eventsCost(store: Store, settings: SyncSettings, intervalDays: number) {
  const live = await countRows(store, 'monitoring_events', null);
  const backlog = settings.monitoring.details ?? DEFAULT_DETAILS;
  const lookbackDays = settings.lookbackDays['monitoring-events'] ?? 7;
  if (live === 0 && intervalDays === 0) {
    const details = Math.min(backlog.maxPerRun, PUBLISHED_MONITORING.detailsInScope);
    return { requests: pagesFor(PUBLISHED_MONITORING.events, MONITORING_PAGE_SIZE) + details, estimated: true };
  }
  const rates = await webhookRates(store, backlog, lookbackDays);
  if (live === 0) {
    const published = { eventsPerDay: PUBLISHED_MONITORING.eventsPerWeek / 7, events: PUBLISHED_MONITORING.events };
    return { requests: steadyEvents(settings, intervalDays, published, backlog, rates), estimated: true };
  }
  const hw = (await store.db
    .selectFrom('monitoring_events')
    .select((eb) => eb.fn.max('started_at').as('hw'))
    .where('deleted_at', 'is', null)
    .executeTakeFirst()) as { hw: unknown };
  const since = new Date((boundMillis(hw.hw) ?? 0) - lookbackDays * DAY_MS).toISOString().replace('.000Z', 'Z');
  const perDay = (await countRows(store, 'monitoring_events', since)) / lookbackDays;
  if (intervalDays > 0)
    return { requests: steadyEvents(settings, intervalDays, { eventsPerDay: perDay, events: live }, backlog, rates), estimated: false };
  const { inScope } = await detailsBacklog(store, backlog);
  const rereads = await nextRereadRequests(store, windowFrom(settings, 'monitoring-events', hw.hw) ?? since);
  return {
    requests: pagesFor(perDay * lookbackDays, MONITORING_PAGE_SIZE) + rereads + Math.min(backlog.maxPerRun, inScope),
    estimated: false,
  };
}

/**
 * A scheduled run once the backlog has drained: its window, a share of the periodic full pass, the
 * re-reads of older events webhooks named, and new details (the backlog's share, and what webhooks add).
 */
function steadyEvents(
  settings: SyncSettings,
  intervalDays: number,
  size: { eventsPerDay: number; events: number },
  backlog: DetailsBacklog,
  rates: WebhookRates,
): number {
  const lookback = settings.lookbackDays['monitoring-events'] ?? 7;
  const windowPages = pagesFor(size.eventsPerDay * (lookback + intervalDays), MONITORING_PAGE_SIZE);
  // Every fullPassEveryHours a run reads every event: spread over the runs in between.
  const fullShare = Math.min(1, (intervalDays * 24) / settings.monitoring.fullPassEveryHours);
  const fullPages = fullShare * pagesFor(size.events, MONITORING_PAGE_SIZE);
  const fresh =
    intervalDays * (PUBLISHED_MONITORING.developmentsPerDay * PUBLISHED_MONITORING.highImportanceShare + rates.extraDetailsPerDay);
  return Math.ceil(windowPages + fullPages + rereadRequestsPerRun(rates, intervalDays) + Math.min(backlog.maxPerRun, fresh));
}

async function countRows(store: Store, table: string, startedSince: string | null): Promise<number> {
  let q = store.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .where('deleted_at', 'is', null);
  if (startedSince !== null) q = q.where('started_at', '>=', startedSince);
  const row = (await q.executeTakeFirst()) as { n: unknown } | undefined;
  return Number(row?.n ?? 0);
}
