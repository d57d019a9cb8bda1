// The mirror's own writes survive losing a lock conflict (a `sync all` whose streams update the same
// alert_days rows): PostgreSQL fails one side of a deadlock and asks the client to run it again, which the
// store does. A durable write (a webhook delivery) is not run again: its sender retries it.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openTestStore } from '../helpers/stores.js';
import type { Store } from '../../src/store/index.js';

/** Two transactions that take rows 1 and 2 in opposite orders, each waiting until the other holds its first row. */
async function crossedWrites(store: Store, durable: boolean) {
  let aHolds!: () => void;
  let bHolds!: () => void;
  const aHeld = new Promise<void>((resolve) => (aHolds = resolve));
  const bHeld = new Promise<void>((resolve) => (bHolds = resolve));
  const write = (first: number, second: number, holds: () => void, other: Promise<void>) =>
    store.transaction(
      async (tx) => {
        await sql`update lock_probe set n = n + 1 where id = ${first}`.execute(tx.db);
        holds();
        await other;
        await sql`update lock_probe set n = n + 1 where id = ${second}`.execute(tx.db);
      },
      { durable },
    );
  return Promise.allSettled([write(1, 2, aHolds, bHeld), write(2, 1, bHolds, aHeld)]);
}

describe('lock conflicts on postgres', () => {
  it('runs the losing side of a deadlock again, so both writes land; a durable write is not run again', async () => {
    const test = await openTestStore('postgres');
    try {
      const db = test.store.db;
      await sql`create table lock_probe (id int primary key, n int not null)`.execute(db);
      await sql`insert into lock_probe values (1, 0), (2, 0)`.execute(db);
      const mirrorWrites = await crossedWrites(test.store, false);
      expect(mirrorWrites.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
      const counts = async () => (await sql<{ n: number }>`select n from lock_probe order by id`.execute(db)).rows.map((r) => r.n);
      expect(await counts()).toEqual([2, 2]);

      const durableWrites = await crossedWrites(test.store, true);
      const failed = durableWrites.filter((r) => r.status === 'rejected');
      expect(failed).toHaveLength(1);
      expect(String((failed[0] as PromiseRejectedResult).reason)).toMatch(/deadlock/);
      expect(await counts()).toEqual([3, 3]);
    } finally {
      await test.cleanup();
    }
  });
});
