// The store's durable writer takes writes as data (RowsWrite) and writes them alike whoever commits them:
// the writer thread of a SQLite file, or PostgreSQL's own transactions. A key held already is kept, or
// updated in the columns asked while the stored row's guard column is null; only `counted` writes count.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RowsWrite } from '../../src/store/index.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

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
  describe(`durable writer (${dialect})`, () => {
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
