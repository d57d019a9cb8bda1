// Keys that come back differing only in case or spacing (`bitcoin` served as `BITCOIN`, an id with a
// trailing space) are a lie as often as a change. Written as they come they would sit beside the rows they
// rename, two live rows for one record, and history would say a record was added that never was. So a
// record served under a new key that folds onto a live row's key waits in `held_arrivals`, as served,
// beside the original's held deletion (deletion-gate.ts). When that deletion is confirmed (a complete pass
// hours later agrees, or --confirm-deletions) the waiting record replaces the original; when the original
// is served again the waiting record is forgotten: nothing of it reaches the mirrored table or its history.
import { keyString, type Row, type Store, type StoreTx } from '../store/types.js';

type Place = { stream: string; variant: string };

/** Rows (five values each) or keys per statement: far under either store's bind-parameter cap. */
const CHUNK = 500;

/** Where a list's rows live: its table, key columns and the variant's scope (an asset class). */
export interface KeyedRows {
  table: string;
  key: readonly string[];
  scope: Row;
}

/** The key a comparison of keys "in another case or spacing" compares. */
export function foldKey(key: string): string {
  return key.normalize('NFKC').toLowerCase().replace(/\s+/g, '');
}

/**
 * The live keys of one variant, read (in the page's transaction) the first time a page holds a key that is
 * text: a number is never served in another case, so a list keyed by numbers never reads them.
 */
export class LiveKeys {
  private index: Promise<{ live: Set<string>; folded: Set<string> }> | null = null;
  private readonly rows: KeyedRows;

  constructor(
    store: Store,
    private readonly place: Place,
    rows: KeyedRows,
  ) {
    this.rows = { ...rows, scope: Object.fromEntries(Object.entries(rows.scope).map(([c, v]) => [c, store.adapter.toDb(v)])) };
  }

  /**
   * The rows to write: those whose key is live, or new and like no live key. The others (new keys that fold
   * onto a live one) are kept in `held_arrivals` in the page's transaction, as the record they came from.
   */
  async divert(tx: StoreTx, key: readonly string[], rows: readonly Row[], now: string): Promise<Row[]> {
    if (rows.every((row) => key.every((c) => typeof row[c] === 'number'))) return [...rows];
    this.index ??= liveKeys(tx.db, this.rows).then((keys) => ({ live: new Set(keys), folded: new Set(keys.map(foldKey)) }));
    const { live, folded } = await this.index;
    if (folded.size === 0) return [...rows]; // nothing live to rename (a first load): no key folded
    const kept: Row[] = [];
    const waiting: Row[] = [];
    for (const row of rows) {
      const k = keyString(key.map((c) => row[c]));
      if (live.has(k) || !folded.has(foldKey(k))) kept.push(row);
      else waiting.push({ ...this.place, key: k, record: String(row.raw), held_at: now });
    }
    for (let i = 0; i < waiting.length; i += CHUNK)
      await tx.db
        .insertInto('held_arrivals')
        .values(waiting.slice(i, i + CHUNK))
        .onConflict((oc) => oc.columns(['stream', 'variant', 'key']).doUpdateSet((eb) => ({ record: eb.ref('excluded.record') })))
        .execute();
    return kept;
  }
}

/**
 * After a complete pass has deleted what it may: each waiting record is written (through `write`, the
 * stream's own write path) once every live row it renames was served by this pass too or is gone; it is
 * forgotten when this pass did not serve it; otherwise it waits on. Returns the records written.
 */
export async function settleArrivals(
  store: Store,
  place: Place,
  rows: KeyedRows,
  seen: ReadonlySet<string>,
  write: (records: unknown[]) => Promise<void>,
): Promise<number> {
  const waiting = await store.db
    .selectFrom('held_arrivals')
    .select(['key', 'record'])
    .where('stream', '=', place.stream)
    .where('variant', '=', place.variant)
    .execute();
  if (waiting.length === 0) return 0;
  // Live keys this pass was not served, by their folded form: an arrival renaming one of them waits.
  const unserved = new Set<string>();
  const scope = Object.fromEntries(Object.entries(rows.scope).map(([c, v]) => [c, store.adapter.toDb(v)]));
  for (const key of await liveKeys(store.db, { ...rows, scope })) if (!seen.has(key)) unserved.add(foldKey(key));
  const settled: string[] = [];
  const records: unknown[] = [];
  for (const { key, record } of waiting) {
    const k = String(key);
    if (seen.has(k) && unserved.has(foldKey(k))) continue;
    settled.push(k);
    if (seen.has(k)) records.push(JSON.parse(String(record)));
  }
  if (records.length > 0) await write(records);
  for (let i = 0; i < settled.length; i += CHUNK)
    await store.db
      .deleteFrom('held_arrivals')
      .where('stream', '=', place.stream)
      .where('variant', '=', place.variant)
      .where('key', 'in', settled.slice(i, i + CHUNK))
      .execute();
  return records.length;
}

/** Records waiting in place of the live rows they rename, for `status`. */
export async function arrivalsWaiting(store: Store, place: Place): Promise<number> {
  const row = (await store.db
    .selectFrom('held_arrivals')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('stream', '=', place.stream)
    .where('variant', '=', place.variant)
    .executeTakeFirst()) as { n: number | string } | undefined;
  return Number(row?.n ?? 0);
}

/** Keys of the live rows in scope (scope values as the store binds them). */
async function liveKeys(db: StoreTx['db'], rows: KeyedRows): Promise<string[]> {
  let query = db
    .selectFrom(rows.table)
    .select([...rows.key])
    .where('deleted_at', 'is', null);
  for (const [column, value] of Object.entries(rows.scope)) query = query.where(column, '=', value);
  return (await query.execute()).map((row) => keyString(rows.key.map((k) => row[k])));
}
