// Events a webhook named since the mirror last wrote them, and that the incremental window does not
// reach (they started before it): re-read by id, 100 to a request (the events filter takes ids and caps
// a page at 100), so an event's new development makes it current on the next incremental run, not on the
// next full pass. The receiver already knows which events changed: every delivery names one.
import { HttpStatusError } from '../../client/index.js';
import type { Store } from '../../store/types.js';
import type { StreamContext } from '../context.js';
import { MONITORING_PATHS } from '../../catalog/monitoring.js';
import { monitoringPages } from './monitoring-pages.js';

/** The events filter's page cap: ids asked for in one request. */
export const IDS_PER_REQUEST = 100;

/** Ids of events a delivery named after the mirror last wrote them (or never mirrored), older than `windowStart`. */
export async function eventsToReread(store: Store, windowStart: string): Promise<string[]> {
  const rows = await store.db
    .selectFrom('webhook_deliveries as d')
    .leftJoin('monitoring_events as e', 'e.id', 'd.event_id')
    .select('d.event_id')
    .distinct()
    .where('d.event_id', 'is not', null)
    .where((eb) =>
      eb.or([eb('e.id', 'is', null), eb.and([eb('d.received_at', '>', eb.ref('e.synced_at')), eb('e.started_at', '<', windowStart)])]),
    )
    .execute();
  return rows.map((r) => String(r.event_id));
}

/**
 * Reads the events by id and hands each page to `write`; a request the service refuses (an id it no
 * longer knows gives 400) is logged and skipped: the next full pass settles those.
 */
export async function rereadEvents(
  ctx: StreamContext,
  ids: readonly string[],
  write: (records: readonly unknown[]) => Promise<void>,
): Promise<number> {
  const name = ctx.settings.monitoring.params.events.eventIds;
  let read = 0;
  for (let i = 0; i < ids.length; i += IDS_PER_REQUEST) {
    const chunk = ids.slice(i, i + IDS_PER_REQUEST);
    try {
      for await (const page of monitoringPages(ctx, { path: MONITORING_PATHS.events, query: { [name]: chunk.join(',') } })) {
        await write(page.records);
        read += page.records.length;
      }
    } catch (error) {
      if (!(error instanceof HttpStatusError && error.status === 400)) throw error;
      ctx.logger.warn(
        { events: chunk.length, err: error.message },
        'events named by webhooks could not be re-read; the next full pass settles them',
      );
    }
  }
  return read;
}
