// Date-window streams (market stats, SEC filings, monitoring events and view matches) ask only for records
// from their high-water mark minus a lookback, which catches records that arrived or changed late. A full
// run, or an empty table, has no window.
// Records dated beyond the present (plus a tolerance) never raise the mark: one `9999-12-31` would otherwise
// move the window past every real record to come. They are stored, and counted for the run's notice.
import type { ListStream } from '../catalog/types.js';
import type { Store } from '../store/types.js';
import type { SyncSettings } from './run-settings.js';
import { boundMillis, presentLimit } from './time-bound.js';

const DAY_MS = 86_400_000;
/** The lookback of a monitoring list without its own in `lookbackDays`. */
export const MONITORING_LOOKBACK_DAYS = 7;

export async function windowStart(store: Store, settings: SyncSettings, stream: ListStream, now = Date.now()): Promise<string | null> {
  const window = stream.window;
  if (!window || settings.mode === 'full') return null;
  const row = (await store.db
    .selectFrom(stream.table)
    .select((eb) => eb.fn.max(window.field).as('hw'))
    .where('deleted_at', 'is', null)
    .where(window.field, '<=', limitFor(stream, now))
    .executeTakeFirst()) as { hw: unknown } | undefined;
  const highWater = boundMillis(row?.hw);
  if (highWater === null) return null;
  const lookback = settings.lookbackDays[stream.name] ?? window.defaultLookbackDays;
  const start = new Date(highWater - lookback * DAY_MS);
  return window.format === 'date' ? start.toISOString().slice(0, 10) : start.toISOString();
}

/** The present limit in the form of the stream's window field (a day, or an instant). */
function limitFor(stream: ListStream, now: number): string {
  const limit = presentLimit(now).toISOString();
  return stream.window?.format === 'date' ? limit.slice(0, 10) : limit;
}

/** Live records dated beyond the present limit, kept but not moving the window: for the run's notice. */
export async function futureDated(store: Store, stream: ListStream, now: number): Promise<{ count: number; latest: string } | null> {
  const window = stream.window;
  if (!window) return null;
  const row = (await store.db
    .selectFrom(stream.table)
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.max(window.field).as('latest')])
    .where('deleted_at', 'is', null)
    .where(window.field, '>', limitFor(stream, now))
    .executeTakeFirst()) as { n: unknown; latest: unknown } | undefined;
  const count = Number(row?.n ?? 0);
  return count > 0 ? { count, latest: String(row?.latest instanceof Date ? row.latest.toISOString() : row?.latest).slice(0, 10) } : null;
}

/** A monitoring list's window start: its high-water mark minus the lookback (default 7 days), RFC 3339. */
export function windowFrom(settings: SyncSettings, stream: string, highWater: unknown): string | null {
  const ms = boundMillis(highWater);
  if (ms === null) return null;
  const days = settings.lookbackDays[stream] ?? MONITORING_LOOKBACK_DAYS;
  return new Date(ms - days * DAY_MS).toISOString();
}
