// Deletions a complete pass held back, kept in the store per (stream, variant): each key with when it was
// first held (so that a later pass can agree), and one line saying why (so that `status` can).
import type { Store } from '../store/types.js';

export interface Hold {
  stream: string;
  variant: string;
  /** Rows kept live that the pass was not served. */
  rows: number;
  reason: string;
  updatedAt: string;
}

type Place = { stream: string; variant: string };

/** The held keys of one variant, each with when it was first held. */
export async function heldKeys(store: Store, place: Place): Promise<Map<string, string>> {
  const rows = await store.db
    .selectFrom('held_deletions')
    .select(['key', 'held_at'])
    .where('stream', '=', place.stream)
    .where('variant', '=', place.variant)
    .execute();
  return new Map(rows.map((r) => [String(r.key), isoTime(r.held_at)]));
}

/** Replaces the variant's held keys (and the reason): keys no longer missing are forgotten. */
export async function saveHold(store: Store, place: Place, keys: ReadonlyMap<string, string>, reason: string, now: string): Promise<void> {
  const rows = [...keys].map(([key, held_at]) => ({ ...place, key, held_at }));
  const chunk = store.adapter.rowsPerStatement(4);
  await store.transaction(async (tx) => {
    await tx.db.deleteFrom('held_deletions').where('stream', '=', place.stream).where('variant', '=', place.variant).execute();
    for (let i = 0; i < rows.length; i += chunk)
      await tx.db
        .insertInto('held_deletions')
        .values(rows.slice(i, i + chunk))
        .execute();
    await writeReason(tx.db, place, rows.length, reason, now);
  });
}

/** A pass that is no basis for deleting: its reason is said, the keys held by earlier passes stay as they were. */
export async function noteHold(store: Store, place: Place, missing: number, reason: string, now: string): Promise<void> {
  await store.transaction((tx) => writeReason(tx.db, place, missing, reason, now));
}

/** Nothing is held any more for the variant. */
export async function clearHold(store: Store, place: Place): Promise<void> {
  await store.transaction(async (tx) => {
    for (const table of ['held_deletions', 'deletion_holds'])
      await tx.db.deleteFrom(table).where('stream', '=', place.stream).where('variant', '=', place.variant).execute();
  });
}

/** Every hold, for `status`. */
export async function allHolds(store: Store): Promise<Hold[]> {
  const rows = await store.db.selectFrom('deletion_holds').selectAll().orderBy('stream').orderBy('variant').execute();
  return rows.map((r) => ({
    stream: String(r.stream),
    variant: String(r.variant),
    rows: Number(r.held_rows),
    reason: String(r.reason),
    updatedAt: isoTime(r.updated_at),
  }));
}

async function writeReason(db: Store['db'], place: Place, rows: number, reason: string, now: string): Promise<void> {
  await db.deleteFrom('deletion_holds').where('stream', '=', place.stream).where('variant', '=', place.variant).execute();
  await db
    .insertInto('deletion_holds')
    .values({ ...place, held_rows: rows, reason, updated_at: now })
    .execute();
}

/** PostgreSQL returns a timestamptz as a Date, SQLite as the ISO text it stored. */
function isoTime(value: unknown): string {
  return new Date(value as string | Date).toISOString();
}
