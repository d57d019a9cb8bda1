// Events a webhook named since the mirror last wrote them, and that the incremental window does not
// reach (they started before it): re-read by id, 100 to a request (the events filter takes ids and caps
// a page at 100), so an event's new development makes it current on the next incremental run, not on the
// next full pass. The receiver already knows which events changed: every delivery names one.
import { HttpStatusError } from '../../client/index.js';
import { sql } from 'kysely';
import type { Store } from '../../store/types.js';
import type { StreamContext } from '../context.js';
import { MONITORING_PATHS } from '../../catalog/monitoring.js';
import { monitoringPages } from './monitoring-pages.js';
import { saveMark } from './pass-marks.js';

/** The events filter's page cap: ids asked for in one request. */
export const IDS_PER_REQUEST = 100;

/** The pass mark that remembers an id the service refused, so that it is not asked for on every run. */
const REFUSED = 'refused-event:';

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
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('pass_marks as m')
            .select('m.part')
            .where('m.stream', '=', 'monitoring-events')
            .whereRef('m.part', '=', sql<string>`${REFUSED} || d.event_id`),
        ),
      ),
    )
    .execute();
  return rows.map((r) => String(r.event_id));
}

/**
 * Reads the events by id and hands each page to `write`. A request the service refuses (an id it does
 * not know gives 400 for the whole request) is split in halves until the refused id stands alone; that
 * id is dropped with a notice and remembered, and every other id of its batch is read.
 */
export async function rereadEvents(
  ctx: StreamContext,
  ids: readonly string[],
  write: (records: readonly unknown[]) => Promise<void>,
): Promise<number> {
  let read = 0;
  const refused: string[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_REQUEST) {
    read += await readBatch(ctx, ids.slice(i, i + IDS_PER_REQUEST), write, refused);
  }
  if (refused.length > 0) {
    const shown = refused.slice(0, 3).join(', ') + (refused.length > 3 ? ', ...' : '');
    ctx.stats.notice ??= `${refused.length} event id(s) named by webhooks are refused by the service and no longer asked for: ${shown}`;
    ctx.logger.warn({ events: refused }, 'event ids named by webhooks were refused by the service; dropped');
    await ctx.store.transaction(async (tx) => {
      for (const id of refused)
        await saveMark(tx, { stream: 'monitoring-events', part: REFUSED + id }, { fullAt: null, highWater: ctx.now() });
    });
  }
  return read;
}

async function readBatch(
  ctx: StreamContext,
  ids: readonly string[],
  write: (records: readonly unknown[]) => Promise<void>,
  refused: string[],
): Promise<number> {
  const name = ctx.settings.monitoring.params.events.eventIds;
  let read = 0;
  try {
    for await (const page of monitoringPages(ctx, { path: MONITORING_PATHS.events, query: { [name]: ids.join(',') } })) {
      await write(page.records);
      read += page.records.length;
    }
    return read;
  } catch (error) {
    if (!(error instanceof HttpStatusError && error.status === 400)) throw error;
    if (ids.length === 1) {
      refused.push(ids[0]!);
      return read;
    }
    const half = Math.ceil(ids.length / 2);
    return read + (await readBatch(ctx, ids.slice(0, half), write, refused)) + (await readBatch(ctx, ids.slice(half), write, refused));
  }
}
