// What one run of the events stream requests: event pages (the window, and a share of the periodic full
// pass), the re-reads of older events webhooks named, and the run's development details (those webhooks
// named first). From the mirror's own sizes, or from the real service's published ones (the catalog's)
// before the mirror holds any event (then marked as an estimate).
import { publishedRows } from '../../catalog/index.js';
import { PUBLISHED_DEVELOPMENTS } from '../../catalog/monitoring.js';
import type { CustomStream } from '../../catalog/types.js';
import { pagesFor } from '../../paging/paginator.js';
import { MONITORING_LOOKBACK_DAYS, windowFrom } from '../../requests/date-window.js';
import { DEFAULT_DETAILS, detailsBacklog } from '../../requests/details-backlog.js';
import type { DetailsBacklog, SyncSettings } from '../../requests/run-settings.js';
import { boundMillis } from '../../requests/time-bound.js';
import { nextRereadRequests, rereadRequestsPerRun, type WebhookRates, webhookRates } from '../../requests/webhook-costs.js';
import type { Store } from '../../store/types.js';
import type { StreamPlan } from '../stream-runner.js';

const DAY_MS = 86_400_000;

export async function eventsPlan(store: Store, settings: SyncSettings, stream: CustomStream, intervalDays: number): Promise<StreamPlan> {
  const live = await countRows(store, stream.table, null);
  const backlog = settings.monitoring.details ?? DEFAULT_DETAILS;
  const lookbackDays = settings.lookbackDays[stream.name] ?? MONITORING_LOOKBACK_DAYS;
  const published = { events: publishedRows(stream) ?? 0, eventsPerDay: stream.published?.rowsPerDay ?? 0 };
  if (live === 0 && intervalDays === 0) {
    const details = Math.min(backlog.maxPerRun, PUBLISHED_DEVELOPMENTS.detailsInScope);
    return { requests: pagesFor(published.events, stream.paginator.pageSize) + details, estimated: true };
  }
  const rates = await webhookRates(store, backlog, lookbackDays);
  if (live === 0) return { requests: steadyEvents(settings, stream, intervalDays, published, backlog, rates), estimated: true };
  const hw = (await store.db
    .selectFrom(stream.table)
    .select((eb) => eb.fn.max('started_at').as('hw'))
    .where('deleted_at', 'is', null)
    .executeTakeFirst()) as { hw: unknown };
  const since = new Date((boundMillis(hw.hw) ?? 0) - lookbackDays * DAY_MS).toISOString().replace('.000Z', 'Z');
  const perDay = (await countRows(store, stream.table, since)) / lookbackDays;
  if (intervalDays > 0)
    return {
      requests: steadyEvents(settings, stream, intervalDays, { eventsPerDay: perDay, events: live }, backlog, rates),
      estimated: false,
    };
  const { inScope } = await detailsBacklog(store, backlog);
  const rereads = await nextRereadRequests(store, stream.name, windowFrom(settings, stream.name, hw.hw) ?? since);
  return {
    requests: pagesFor(perDay * lookbackDays, stream.paginator.pageSize) + rereads + Math.min(backlog.maxPerRun, inScope),
    estimated: false,
  };
}

/**
 * A scheduled run once the backlog has drained: its window, a share of the periodic full pass, the
 * re-reads of older events webhooks named, and new details (the backlog's share, and what webhooks add).
 */
function steadyEvents(
  settings: SyncSettings,
  stream: CustomStream,
  intervalDays: number,
  size: { eventsPerDay: number; events: number },
  backlog: DetailsBacklog,
  rates: WebhookRates,
): number {
  const lookback = settings.lookbackDays[stream.name] ?? MONITORING_LOOKBACK_DAYS;
  const pageSize = stream.paginator.pageSize;
  const windowPages = pagesFor(size.eventsPerDay * (lookback + intervalDays), pageSize);
  // Every fullPassEveryHours a run reads every event: spread over the runs in between.
  const fullShare = Math.min(1, (intervalDays * 24) / settings.monitoring.fullPassEveryHours);
  const fullPages = fullShare * pagesFor(size.events, pageSize);
  const fresh = intervalDays * (PUBLISHED_DEVELOPMENTS.perDay * PUBLISHED_DEVELOPMENTS.highImportanceShare + rates.extraDetailsPerDay);
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
