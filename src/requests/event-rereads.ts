// Events a webhook named since the mirror last wrote them, and that the incremental window does not
// reach (they started before it): re-read by id, 100 to a request (the events filter takes ids and caps
// a page at 100). The receiver already knows which events changed: every delivery names one.
import { sql } from 'kysely';
import type { Store } from '../store/types.js';

/** The events filter's page cap: ids asked for in one request. */
export const IDS_PER_REQUEST = 100;

/** The pass mark that remembers an id the service refused, so that it is not asked for on every run. */
export const REFUSED_EVENT = 'refused-event:';

/**
 * Ids of events a delivery named after the mirror last wrote them (or never mirrored), older than
 * `windowStart`, but those the events stream (`stream`, whose pass marks remember refusals) was refused.
 */
export async function eventsToReread(store: Store, stream: string, windowStart: string): Promise<string[]> {
  const rows = await store.db
    .selectFrom('webhook_deliveries as d')
    .leftJoin('monitoring_events as e', 'e.id', 'd.event_id')
    .select('d.event_id')
    .distinct()
    .where('d.event_id', 'is not', null)
    .where((eb) =>
      eb.or([eb('e.id', 'is', null), eb.and([eb('d.received_at', '>', eb.ref('e.synced_at')), eb('e.started_at', '<', windowStart)])]),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('pass_marks as m')
            .select('m.part')
            .where('m.stream', '=', stream)
            .whereRef('m.part', '=', sql<string>`${REFUSED_EVENT} || d.event_id`),
        ),
      ),
    )
    .execute();
  return rows.map((r) => String(r.event_id));
}
