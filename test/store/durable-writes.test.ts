// What the store writes for the outside world. A transaction that acknowledges something to the outside (a
// webhook delivery) commits durably: on SQLite with synchronous=FULL (fsync), then back to the mirror's
// NORMAL; on PostgreSQL with synchronous_commit on for that transaction, where the mirror's own commits run
// with it off. The store's durable writer takes writes as data (RowsWrite) and writes them alike whoever
// commits them: the writer thread of a SQLite file, or PostgreSQL's own transactions. A key held already is
// kept, or updated in the columns asked while the stored row's guard column is null; only `counted` writes
// count.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RowsWrite, Store } from '../../src/store/index.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const level = async (db: Kysely<any>) =>
  Number(((await sql.raw('pragma synchronous').execute(db)).rows[0] as { synchronous: number }).synchronous);

/** SQLite: synchronous FULL for a durable transaction only (alone, two at once, one that fails), NORMAL after. */
async function expectSqliteCommits(store: Store): Promise<void> {
  expect(await level(store.db)).toBe(1);
  const inside = await store.transaction(async (tx) => level(tx.db), { durable: true });
  expect(inside).toBe(2);
  expect(await level(store.db)).toBe(1);
  const concurrent = await Promise.all([
    store.transaction(async (tx) => level(tx.db), { durable: true }),
    store.transaction(async (tx) => level(tx.db), { durable: true }),
  ]);
  expect(concurrent).toEqual([2, 2]);
  expect(await level(store.db)).toBe(1);
  await expect(
    store.transaction(
      async () => {
        throw new Error('boom');
      },
      { durable: true },
    ),
  ).rejects.toThrow('boom');
  expect(await level(store.db)).toBe(1);
}

/** PostgreSQL: the mirror's commits asynchronous, a durable transaction's synchronous. */
async function expectPostgresCommits(store: Store): Promise<void> {
  const setting = async (db: Kysely<any>) =>
    ((await sql.raw('show synchronous_commit').execute(db)).rows[0] as { synchronous_commit: string }).synchronous_commit;
  expect(await store.transaction(async (tx) => setting(tx.db))).toBe('off');
  expect(await store.transaction(async (tx) => setting(tx.db), { durable: true })).toBe('on');
  expect(await store.transaction(async (tx) => setting(tx.db))).toBe('off');
}

// One store per dialect for the file, a table of its own per case (a PostgreSQL database per case cost more than the case).
let table = '';
const kept = (rows: RowsWrite['rows']): RowsWrite => ({ table, key: ['id'], rows, counted: true });
const merged = (rows: RowsWrite['rows']): RowsWrite => ({
  table,
  key: ['id'],
  rows,
  update: { columns: ['note', 'seen_at'], whereNull: 'seen_at' },
});

for (const dialect of dialects) {
  describe(`durable writes (${dialect})`, () => {
    let t: TestStore;
    let cases = 0;
    beforeAll(async () => {
      t = await openTestStore(dialect);
    });
    afterAll(() => t?.cleanup());
    beforeEach(async () => {
      table = `test_notes_${++cases}`;
      await t.store.db.schema
        .createTable(table)
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('note', 'text')
        .addColumn('seen_at', 'text')
        .execute();
    });

    const notes = async () =>
      (await t.store.db.selectFrom(table).select(['id', 'note', 'seen_at']).orderBy('id').execute()).map((r) => ({ ...r }));

    it("commits a durable transaction durably, and the mirror's own commits not", async () => {
      if (dialect === 'sqlite') await expectSqliteCommits(t.store);
      else await expectPostgresCommits(t.store);
    });

    it('keeps the first row of a key, updates where asked and the guard is null, and counts only counted writes', async () => {
      const writer = await t.store.openDurableWriter();
      try {
        const first = await writer.write([
          kept([
            { id: 'a', note: 'first', seen_at: null },
            { id: 'b', note: 'first', seen_at: null },
          ]),
        ]);
        expect(first.result).toBe(2);
        const second = await writer.write([
          kept([{ id: 'a', note: 'again', seen_at: null }]),
          merged([
            { id: 'b', note: 'merged', seen_at: 'T1' },
            { id: 'c', note: 'new', seen_at: 'T1' },
          ]),
        ]);
        // The kept row was held (0), and the merge is not counted.
        expect(second.result).toBe(0);
        expect(second.commit).toBeGreaterThan(first.commit);
        await writer.write([merged([{ id: 'b', note: 'late', seen_at: 'T2' }])]);
        expect(await notes()).toEqual([
          { id: 'a', note: 'first', seen_at: null },
          { id: 'b', note: 'merged', seen_at: 'T1' },
          { id: 'c', note: 'new', seen_at: 'T1' },
        ]);
      } finally {
        await writer.close();
      }
    });

    it('writes the same through a transaction of the store', async () => {
      const counted = await t.store.transaction((tx) =>
        tx.writeRows([kept([{ id: 'a', note: 'first', seen_at: null }]), merged([{ id: 'a', note: 'merged', seen_at: 'T1' }])]),
      );
      expect(counted).toBe(1);
      expect(await notes()).toEqual([{ id: 'a', note: 'merged', seen_at: 'T1' }]);
    });
  });
}
