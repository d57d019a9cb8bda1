// The events webhooks named that the incremental window does not reach (src/requests/event-rereads.ts),
// re-read by id, 100 to a request, so an event's new development makes it current on the next incremental
// run, not on the next full pass.
import { HttpStatusError } from '../../client/index.js';
import type { PageNumberSpec } from '../../catalog/types.js';
import type { StreamContext } from '../context.js';
import { MONITORING_PATHS } from '../../catalog/monitoring.js';
import { eventRecord } from '../../catalog/monitoring-records.js';
import { monitoringPages } from './monitoring-pages.js';
import { saveMark } from './pass-marks.js';
import { IDS_PER_REQUEST, REFUSED_EVENT } from '../../requests/event-rereads.js';

/**
 * Reads the events by id and hands each page to `write`. A request the service refuses (an id it does
 * not know gives 400 for the whole request) is split in halves until the refused id stands alone; that
 * id is dropped with a notice and remembered, and every other id of its batch is read.
 */
export async function rereadEvents(
  ctx: StreamContext,
  paginator: PageNumberSpec,
  ids: readonly string[],
  write: (records: readonly unknown[]) => Promise<void>,
): Promise<number> {
  let read = 0;
  const refused: string[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_REQUEST) {
    read += await readBatch(ctx, paginator, ids.slice(i, i + IDS_PER_REQUEST), write, refused);
  }
  if (refused.length > 0) {
    const shown = refused.slice(0, 3).join(', ') + (refused.length > 3 ? ', ...' : '');
    ctx.stats.notice ??= `${refused.length} event id(s) named by webhooks are refused by the service and no longer asked for: ${shown}`;
    ctx.logger.warn({ events: refused }, 'event ids named by webhooks were refused by the service; dropped');
    await ctx.store.transaction(async (tx) => {
      for (const id of refused)
        await saveMark(tx, { stream: eventRecord.name, part: REFUSED_EVENT + id }, { fullAt: null, highWater: ctx.now() });
    });
  }
  return read;
}

async function readBatch(
  ctx: StreamContext,
  paginator: PageNumberSpec,
  ids: readonly string[],
  write: (records: readonly unknown[]) => Promise<void>,
  refused: string[],
): Promise<number> {
  const name = ctx.settings.monitoring.params.events.eventIds;
  let read = 0;
  try {
    for await (const page of monitoringPages(ctx, { path: MONITORING_PATHS.events, paginator, query: { [name]: ids.join(',') } })) {
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
    return (
      read +
      (await readBatch(ctx, paginator, ids.slice(0, half), write, refused)) +
      (await readBatch(ctx, paginator, ids.slice(half), write, refused))
    );
  }
}
