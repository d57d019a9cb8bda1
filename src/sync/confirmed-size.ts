// A list's size at its last confirmed pass, per (stream, variant): what a slow drain is measured against.
// Small deletions are made at once, so a list losing 5% a pass would lose half of itself in fourteen
// passes without one of them looking unusual; measured against this mark, the pass that takes the list
// more than `maxDeleteShare` below it is held like a sudden loss.
// A pass is confirmed when what it deleted was confirmed: the mirror's first complete pass (nothing to
// measure against yet), a pass that deleted what an earlier pass held and holds nothing more, or a pass
// run with --confirm-deletions. A later trusted pass that finds the list larger raises the mark (the
// peak): a list that grew and then drains is measured from its peak. Small deletions never lower it.
import type { Store } from '../store/types.js';

type Place = { stream: string; variant: string };

export interface ConfirmedSize {
  /** Rows the list held after its last confirmed pass, and when that was. */
  confirmedRows: number;
  confirmedAt: string;
  /** The largest a trusted pass found the list since: the mark a drain is measured against. */
  peakRows: number;
}

export async function readConfirmedSize(store: Store, place: Place): Promise<ConfirmedSize | null> {
  const row = await store.db
    .selectFrom('confirmed_sizes')
    .select(['confirmed_rows', 'confirmed_at', 'peak_rows'])
    .where('stream', '=', place.stream)
    .where('variant', '=', place.variant)
    .executeTakeFirst();
  if (!row) return null;
  return {
    confirmedRows: Number(row.confirmed_rows),
    confirmedAt: new Date(row.confirmed_at as string | Date).toISOString(),
    peakRows: Number(row.peak_rows),
  };
}

/** The pass confirmed the list at `rows`: the mark starts again from there. */
export async function confirmSize(store: Store, place: Place, rows: number, now: string): Promise<void> {
  await writeSize(store, place, { confirmedRows: rows, confirmedAt: now, peakRows: rows });
}

/** A trusted pass found the list at `rows`: the mark rises to it, never falls. */
export async function raisePeak(store: Store, place: Place, known: ConfirmedSize, rows: number): Promise<void> {
  if (rows > known.peakRows) await writeSize(store, place, { ...known, peakRows: rows });
}

async function writeSize(store: Store, place: Place, size: ConfirmedSize): Promise<void> {
  const values = { confirmed_rows: size.confirmedRows, confirmed_at: size.confirmedAt, peak_rows: size.peakRows };
  await store.db
    .insertInto('confirmed_sizes')
    .values({ ...place, ...values })
    .onConflict((oc) => oc.columns(['stream', 'variant']).doUpdateSet(values))
    .execute();
}
