// Faults injected into the real database, so they reach whichever connection commits the deliveries
// (the SQLite writer thread has its own): a failing insert (the storage failure the sender must see
// as a 503) and a held write lock (a slow commit). Also row counts of the four tables the receiver writes.
import { sql } from 'kysely';
import type { Store } from '../../src/store/index.js';

/** Every insert into webhook_deliveries fails until the returned function is called. */
export async function failDeliveryInserts(store: Store): Promise<() => Promise<void>> {
  if (store.dialect === 'sqlite') {
    await sql`create trigger ds_test_fail before insert on webhook_deliveries begin select raise(abort, 'disk I/O error (injected)'); end`.execute(
      store.db,
    );
    return async () => void (await sql`drop trigger ds_test_fail`.execute(store.db));
  }
  await sql`create function ds_test_fail() returns trigger language plpgsql as $$ begin raise exception 'disk I/O error (injected)'; end $$`.execute(
    store.db,
  );
  await sql`create trigger ds_test_fail before insert on webhook_deliveries for each statement execute function ds_test_fail()`.execute(
    store.db,
  );
  return async () => {
    await sql`drop trigger ds_test_fail on webhook_deliveries`.execute(store.db);
    await sql`drop function ds_test_fail()`.execute(store.db);
  };
}

/** Holds a lock that makes the receiver's commit wait, until the returned function is called. */
export async function holdWriteLock(store: Store): Promise<() => Promise<void>> {
  let locked!: () => void;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (locked = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  // SQLite transactions begin immediate: the write lock is taken before this function runs.
  const done = store.transaction(async (tx) => {
    if (store.dialect === 'postgres') await sql`lock table webhook_deliveries in share row exclusive mode`.execute(tx.db);
    locked();
    await released;
  });
  await held;
  return async () => {
    release();
    await done;
  };
}

export interface RowCounts {
  deliveries: number;
  /** (delivery, view) pairs. */
  pairs: number;
  alerts: number;
  developments: number;
}

/** Rows of one delivery's ids in the four tables the receiver writes, or of the whole tables. */
export async function rowCounts(store: Store, env?: any): Promise<RowCounts> {
  const count = async (table: string, column: string, value: string | undefined) => {
    let q = store.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n'));
    if (value !== undefined) q = q.where(column, '=', value);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };
  return {
    deliveries: await count('webhook_deliveries', 'id', env?.id),
    pairs: await count('alert_deliveries', 'delivery_id', env?.id),
    alerts: await count('alert_history', 'event_id', env?.data.event.id),
    developments: await count('monitoring_developments', 'id', env?.data.latest_development.id),
  };
}
