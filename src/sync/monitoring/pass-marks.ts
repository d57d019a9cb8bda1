// When the last complete pass of a monitoring list ran, and the newest date it has seen: a row of
// pass_marks per (stream, part), apart from stream_state, whose checkpoint means only "an interrupted
// pass to resume" (what `ds-mirror status` shows).
import type { Store, StoreTx } from '../../store/types.js';
import type { SyncSettings } from '../context.js';

export interface PassMark {
  /** When the last complete (unwindowed) pass finished. */
  fullAt: string | null;
  /** The newest `startedAt` seen (views' match lists; events use their table). */
  highWater: string | null;
  /** Rows the list held at its last complete pass (views' match lists); kept as it was when absent. */
  rows?: number | null;
}

/** Which mark: the stream, and what part of it (`full-pass` for the whole list, or a view id). */
export interface MarkName {
  stream: string;
  part: string;
}

const HOUR_MS = 3_600_000;

export async function readMark(store: Store, { stream, part }: MarkName): Promise<PassMark> {
  const row = await store.db
    .selectFrom('pass_marks')
    .select(['full_pass_at', 'high_water', 'list_rows'])
    .where('stream', '=', stream)
    .where('part', '=', part)
    .executeTakeFirst();
  const rows = row?.list_rows;
  return { fullAt: row?.full_pass_at ?? null, highWater: row?.high_water ?? null, ...(rows == null ? {} : { rows: Number(rows) }) };
}

export async function saveMark(tx: StoreTx, { stream, part }: MarkName, mark: PassMark): Promise<void> {
  const values = {
    full_pass_at: mark.fullAt,
    high_water: mark.highWater,
    updated_at: new Date().toISOString(),
    ...(mark.rows === undefined ? {} : { list_rows: mark.rows }),
  };
  await tx.db
    .insertInto('pass_marks')
    .values({ stream, part, ...values })
    .onConflict((oc) => oc.columns(['stream', 'part']).doUpdateSet(values))
    .execute();
}

/** A full pass: asked for, never done, or older than `fullPassEveryHours`. */
export function fullPassDue(settings: SyncSettings, mark: PassMark, now: string): boolean {
  if (settings.mode === 'full' || mark.fullAt === null) return true;
  return Date.parse(now) - Date.parse(mark.fullAt) >= settings.monitoring.fullPassEveryHours * HOUR_MS;
}
