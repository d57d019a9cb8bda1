import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMirrorTable, dialects, openTestStore } from '../helpers/stores.js';
import type { TestStore } from '../helpers/stores.js';
import type { Row } from '../../src/store/index.js';

const T1 = '2025-01-01T00:00:00.000Z';
const T2 = '2025-01-02T00:00:00.000Z';

for (const dialect of dialects) {
  describe(`page transactions (${dialect})`, () => {
    // One store for the file's cases, each writing tables and stream states of its own: a fresh PostgreSQL
    // database per case cost the server more than the cases' writes.
    let t: TestStore;
    let cases = 0;
    /** A table (or stream) name of this case's own. */
    const own = (name: string) => `${name}_${cases}`;
    const json = dialect === 'postgres' ? 'jsonb' : 'text';
    const integer = dialect === 'postgres' ? 'bigint' : 'integer';

    beforeAll(async () => {
      t = await openTestStore(dialect);
    });
    afterAll(() => t?.cleanup());
    beforeEach(() => void cases++);

    describe('replaceChildren', () => {
      const childRows = (n: number, tag: string): Row[] => Array.from({ length: n }, (_, i) => ({ row_no: i + 1, data: { tag, i } }));
      const chartRows = (chart: number) =>
        t.store.db.selectFrom(own('test_children')).select(['row_no', 'data']).where('chart_id', '=', chart).orderBy('row_no').execute();

      beforeEach(async () => {
        await t.store.db.schema
          .createTable(own('test_children'))
          .addColumn('chart_id', integer, (c) => c.notNull())
          .addColumn('row_no', integer, (c) => c.notNull())
          .addColumn('data', json, (c) => c.notNull())
          .addPrimaryKeyConstraint(`test_children_${cases}_pk`, ['chart_id', 'row_no'])
          .execute();
        await t.store.transaction(async (tx) => {
          expect(await tx.replaceChildren(own('test_children'), { chart_id: 1 }, childRows(3, 'old'))).toBe(3);
          expect(await tx.replaceChildren(own('test_children'), { chart_id: 2 }, childRows(2, 'other'))).toBe(2);
        });
      });

      it("replaces one parent's rows and leaves the others", async () => {
        expect(await t.store.transaction((tx) => tx.replaceChildren(own('test_children'), { chart_id: 1 }, childRows(2, 'new')))).toBe(2);
        expect((await chartRows(1)).map((r) => JSON.parse(r.data))).toEqual([
          { tag: 'new', i: 0 },
          { tag: 'new', i: 1 },
        ]);
        expect(await chartRows(2)).toHaveLength(2);
      });

      it('keeps the old rows when the replacement fails mid-way, even if the caller commits', async () => {
        const rows = childRows(1500, 'new'); // the first 1,000 are inserted before row 1,201 fails
        rows[1200] = { row_no: 1201, data: null };
        await t.store.transaction(async (tx) => {
          await expect(tx.replaceChildren(own('test_children'), { chart_id: 1 }, rows)).rejects.toThrow();
          await tx.saveCheckpoint(own('charts'), { after: 'failure' });
        });
        expect((await chartRows(1)).map((r) => JSON.parse(r.data).tag)).toEqual(['old', 'old', 'old']);
        expect((await t.store.getState(own('charts')))?.checkpoint).toEqual({ after: 'failure' });
      });
    });

    it('insertIgnore inserts new keys only and counts them', async () => {
      await t.store.db.schema
        .createTable(own('test_deliveries'))
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('body', json, (c) => c.notNull())
        .execute();
      const delivery = (id: string, v: number) => ({ id, body: { v } });
      expect(await t.store.transaction((tx) => tx.insertIgnore(own('test_deliveries'), ['id'], [delivery('a', 1), delivery('b', 1)]))).toBe(
        2,
      );
      const second = [delivery('a', 2), delivery('c', 2), delivery('c', 3)];
      expect(await t.store.transaction((tx) => tx.insertIgnore(own('test_deliveries'), ['id'], second))).toBe(1);
      const stored = await t.store.db.selectFrom(own('test_deliveries')).selectAll().orderBy('id').execute();
      expect(stored.map((r) => [r.id, JSON.parse(r.body).v])).toEqual([
        ['a', 1],
        ['b', 1],
        ['c', 2],
      ]);
    });

    it('commits the checkpoint with its page, and neither when the page fails', async () => {
      await createMirrorTable(t.store, own('test_items'), ['id']);
      const page = (ids: number[]) => ids.map((id) => ({ id, raw: { id }, row_hash: `h${id}` }));
      await t.store.transaction(async (tx) => {
        await tx.upsertChanged(own('test_items'), ['id'], page([1, 2]), T1);
        await tx.saveCheckpoint(own('test_items'), { page: 2, cursor: 'abc' });
      });
      await expect(
        t.store.transaction(async (tx) => {
          await tx.upsertChanged(own('test_items'), ['id'], page([3, 4]), T2);
          await tx.saveCheckpoint(own('test_items'), { page: 3 });
          throw new Error('connection lost before commit');
        }),
      ).rejects.toThrow('connection lost');
      const ids = await t.store.db.selectFrom(own('test_items')).select('id').orderBy('id').execute();
      expect(ids.map((r) => r.id)).toEqual([1, 2]);
      expect((await t.store.getState(own('test_items')))?.checkpoint).toEqual({ page: 2, cursor: 'abc' });
    });

    it('quarantines a malformed record with its reason', async () => {
      await t.store.transaction(async (tx) => {
        await tx.quarantine(own('assets'), 'id is not an integer', { id: 'x1', title: 'Bad' }, T1);
        await tx.quarantine(own('assets'), 'not an object', 'just a string', T1);
      });
      const rows = await t.store.db.selectFrom('quarantine').selectAll().where('stream', '=', own('assets')).orderBy('id').execute();
      expect(rows.map((r) => [r.stream, r.reason, JSON.parse(r.record), r.seen_at])).toEqual([
        [own('assets'), 'id is not an integer', { id: 'x1', title: 'Bad' }, T1],
        [own('assets'), 'not an object', 'just a string', T1],
      ]);
    });

    describe('softDeleteMissing', () => {
      beforeEach(() => createMirrorTable(t.store, own('test_items'), ['id']));
      const live = async () =>
        (await t.store.db.selectFrom(own('test_items')).select('id').where('deleted_at', 'is', null).orderBy('id').execute()).map(
          (r) => r.id,
        );

      it('soft-deletes unseen rows within the scope only, once', async () => {
        const rows = [1, 2, 3, 4, 5, 6].map((id) => ({ id, active: id <= 4, raw: { id }, row_hash: `h${id}` }));
        await t.store.transaction((tx) => tx.upsertChanged(own('test_items'), ['id'], rows, T1));
        expect(await t.store.softDeleteMissing(own('test_items'), ['id'], new Set(['1', '2']), { active: true }, T2)).toBe(2);
        expect(await live()).toEqual([1, 2, 5, 6]);
        const deleted = await t.store.db
          .selectFrom(own('test_items'))
          .select(['id', 'deleted_at', 'synced_at'])
          .where('id', 'in', [3, 4])
          .orderBy('id')
          .execute();
        expect(deleted).toEqual([
          { id: 3, deleted_at: T2, synced_at: T1 },
          { id: 4, deleted_at: T2, synced_at: T1 },
        ]);
        expect(await t.store.softDeleteMissing(own('test_items'), ['id'], new Set(['1', '2']), { active: true }, T2)).toBe(0);
      });

      it('handles composite keys and more missing keys than one statement takes', async () => {
        await createMirrorTable(t.store, own('test_pairs'), ['chart_id', 'slug']);
        const rows = Array.from({ length: 5_000 }, (_, i) => ({ chart_id: i % 7, slug: `s${i}`, raw: {}, row_hash: 'h' }));
        await t.store.transaction((tx) => tx.upsertChanged(own('test_pairs'), ['chart_id', 'slug'], rows, T1));
        const seen = new Set(['0\u0000s0', '1\u0000s1']);
        expect(await t.store.softDeleteMissing(own('test_pairs'), ['chart_id', 'slug'], seen, {}, T2)).toBe(4_998);
        const alive = await t.store.db
          .selectFrom(own('test_pairs'))
          .select(['chart_id', 'slug'])
          .where('deleted_at', 'is', null)
          .orderBy('slug')
          .execute();
        expect(alive).toEqual([
          { chart_id: 0, slug: 's0' },
          { chart_id: 1, slug: 's1' },
        ]);
      });
    });
  });
}
