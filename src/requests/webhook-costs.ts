// What webhooks add to the events stream's runs: the events they name that are older than the window
// are re-read by id (100 a request), and the developments they name go to the front of the details
// backlog, whatever their importance. The next run's share is exact (the mirror holds the deliveries);
// a scheduled run's is the rate of the last week of deliveries.
import type { Store } from '../store/types.js';
import type { DetailsBacklog } from './run-settings.js';
import { IMPORTANCE } from './details-backlog.js';
import { eventsToReread, IDS_PER_REQUEST } from './event-rereads.js';

const DAY_MS = 86_400_000;
/** The deliveries a rate is measured over, back from the newest. */
const RATE_DAYS = 7;

/** Requests of the next incremental run's re-reads: the events named since they were written, older than the window. */
export async function nextRereadRequests(store: Store, stream: string, windowStart: string): Promise<number> {
  return Math.ceil((await eventsToReread(store, stream, windowStart)).length / IDS_PER_REQUEST);
}

export interface WebhookRates {
  /** Events a day that deliveries name and that started before the window (they are re-read by id). */
  rereadsPerDay: number;
  /** Developments a day that deliveries name and that the backlog's importance would leave out. */
  extraDetailsPerDay: number;
}

/**
 * Over the last week of deliveries, back from the newest received (the machine's clock plays no part), or
 * the days they cover when fewer (a day at least, so a first delivery is not a rate).
 */
export async function webhookRates(store: Store, backlog: DetailsBacklog, lookbackDays: number): Promise<WebhookRates> {
  const span = (await store.db
    .selectFrom('alert_deliveries')
    .select((eb) => [eb.fn.min('received_at').as('oldest'), eb.fn.max('received_at').as('newest')])
    .executeTakeFirst()) as { oldest: unknown; newest: unknown } | undefined;
  if (span?.newest == null) return { rereadsPerDay: 0, extraDetailsPerDay: 0 };
  const newest = millis(span.newest);
  const days = Math.min(RATE_DAYS, Math.max(1, (newest - millis(span.oldest)) / DAY_MS));
  const since = new Date(newest - days * DAY_MS).toISOString();
  const rows = (await store.db
    .selectFrom('alert_deliveries as p')
    .leftJoin('monitoring_events as e', 'e.id', 'p.event_id')
    .leftJoin('monitoring_developments as d', 'd.id', 'p.development_id')
    .select(['p.event_id', 'p.development_id', 'p.received_at', 'e.started_at', 'd.importance'])
    .where('p.received_at', '>=', since)
    .execute()) as { event_id: string; development_id: string; received_at: unknown; started_at: unknown; importance: unknown }[];
  const covered = new Set<unknown>(IMPORTANCE.slice(IMPORTANCE.indexOf(backlog.minimumImportance)));
  const old = new Set<string>();
  const extra = new Set<string>();
  for (const r of rows) {
    const started = r.started_at == null ? null : millis(r.started_at);
    if (started === null || started < millis(r.received_at) - lookbackDays * DAY_MS) old.add(r.event_id);
    if (!covered.has(r.importance)) extra.add(r.development_id);
  }
  return { rereadsPerDay: old.size / days, extraDetailsPerDay: extra.size / days };
}

/** A stored time (ISO text on SQLite, a Date from PostgreSQL) in milliseconds. */
function millis(value: unknown): number {
  return value instanceof Date ? value.getTime() : Date.parse(String(value));
}

/**
 * A scheduled run's re-read requests: at most one a run while fewer than one event a run is named (the
 * chance a run has any), else one per 100 events.
 */
export function rereadRequestsPerRun(rates: WebhookRates, intervalDays: number): number {
  const events = rates.rereadsPerDay * intervalDays;
  return events < 1 ? events : Math.ceil(events / IDS_PER_REQUEST);
}
