// When the last complete pass of a monitoring list ran, and the newest date it has seen. Kept in
// stream_state under `<stream>:<part>` beside the stream's own row, so that row's checkpoint still
// means only "an interrupted pass to resume" (what `ds-mirror status` shows).
import type { Store, StoreTx } from '../store/types.js';
import type { SyncSettings } from '../sync/context.js';
import { boundMillis } from '../sync/time-bound.js';

export interface PassMark {
  /** When the last complete (unwindowed) pass finished. */
  fullAt: string | null;
  /** The newest `startedAt` seen (views' match lists; events use their table). */
  highWater: string | null;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export function markName(stream: string, part: string): string {
  return `${stream}:${part}`;
}

export async function readMark(store: Store, name: string): Promise<PassMark> {
  const saved = (await store.getState(name))?.checkpoint as Partial<PassMark> | null | undefined;
  return { fullAt: saved?.fullAt ?? null, highWater: saved?.highWater ?? null };
}

export function saveMark(tx: StoreTx, name: string, mark: PassMark): Promise<void> {
  return tx.saveCheckpoint(name, mark);
}

/** A full pass: asked for, never done, or older than `fullPassEveryHours`. */
export function fullPassDue(settings: SyncSettings, mark: PassMark, now: string): boolean {
  if (settings.mode === 'full' || mark.fullAt === null) return true;
  return Date.parse(now) - Date.parse(mark.fullAt) >= settings.monitoring.fullPassEveryHours * HOUR_MS;
}

/** The incremental window's lower bound: high water minus the lookback (default 7 days), RFC 3339. */
export function windowFrom(settings: SyncSettings, stream: string, highWater: unknown): string | null {
  const ms = boundMillis(highWater);
  if (ms === null) return null;
  const days = settings.lookbackDays[stream] ?? 7;
  return new Date(ms - days * DAY_MS).toISOString();
}
