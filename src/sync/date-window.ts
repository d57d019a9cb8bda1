// Date-window streams (market stats, SEC filings) ask only for records from their high-water mark minus
// a lookback, which catches records that arrived or changed late. A full run, or an empty table, has no window.
import type { ListStream } from '../catalog/types.js';
import type { Store } from '../store/types.js';
import type { SyncSettings } from './context.js';
import { boundMillis } from './time-bound.js';

const DAY_MS = 86_400_000;

export async function windowStart(store: Store, settings: SyncSettings, stream: ListStream): Promise<string | null> {
  const window = stream.window;
  if (!window || settings.mode === 'full') return null;
  const row = (await store.db
    .selectFrom(stream.table)
    .select((eb) => eb.fn.max(window.field).as('hw'))
    .where('deleted_at', 'is', null)
    .executeTakeFirst()) as { hw: unknown } | undefined;
  const highWater = boundMillis(row?.hw);
  if (highWater === null) return null;
  const lookback = settings.lookbackDays[stream.name] ?? window.defaultLookbackDays;
  const start = new Date(highWater - lookback * DAY_MS);
  return window.format === 'date' ? start.toISOString().slice(0, 10) : start.toISOString();
}
