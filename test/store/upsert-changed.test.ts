import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMirrorTable, dialects, openTestStore } from '../helpers/stores.js';
import type { TestStore } from '../helpers/stores.js';
import type { Row } from '../../src/store/index.js';
import { heldRowsQuery } from '../../src/store/postgres/postgres-adapter.js';
import { sql } from 'kysely';

const T1 = '2025-01-01T00:00:00.000Z';
const T2 = '2025-01-02T00:00:00.000Z';
const T3 = '2025-01-03T00:00:00.000Z';

function item(id: number, version = 'a'): Row {
  return {
    id,
    title: `item ${id} ${version}`,
    price: id + 0.25,
    active: id % 2 === 0,
    tags: ['x', version],
    updated_at: '2024-06-01T12:30:00.000Z',
    raw: { id, version, nested: { ok: true } },
    row_hash: `h${id}${version}`,
  };
}

for (const dialect of dialects) {
  describe(`upsertChanged (${dialect})`, () => {
    // One store for the file's cases, each writing tables of its own (the store keeps what it learned of a
    // table by name): a fresh PostgreSQL database per case cost the server more than the cases' writes.
    let t: TestStore;
    let cases = 0;
    let items = '';
    const table = (name: string) => `${name}_${cases}`;
    const upsert = (rows: Row[], now: string, name = items, key = ['id']) =>
      t.store.transaction((tx) => tx.upsertChanged(name, key, rows, now));
    const all = (name = items) => t.store.db.selectFrom(name).selectAll().orderBy('id').execute();

    beforeAll(async () => {
      t = await openTestStore(dialect);
    });
    afterAll(() => t?.cleanup());
    beforeEach(async () => {
      cases++;
      items = table('test_items');
      await createMirrorTable(t.store, items, ['id']);
    });

    // SQLite writes a page in slices of 250 rows between turns of the event loop: a refused row in the first,
    // second and third. PostgreSQL writes it in one statement, then row by row once a row is refused (a
    // savepoint each): a tenth of the rows shows the same there, at a tenth of the round trips.
    const [pageSize, refusedIds] = dialect === 'sqlite' ? [600, [10, 300, 550]] : [60, [10, 30, 55]];
    it(`writes a page of ${pageSize} rows but the three the store refuses, and quarantines exactly those`, async () => {
      const refused = new Set(refusedIds);
      const rows = Array.from({ length: pageSize }, (_, i) => (refused.has(i) ? { ...item(i), title: null, raw: null } : item(i)));
      expect(await upsert(rows, T1)).toEqual({ inserted: pageSize - 3, updated: 0, unchanged: 0, rejected: 3 });
      expect((await all()).map((r) => Number(r.id)).filter((id) => refused.has(id))).toEqual([]);
      const held = await t.store.db.selectFrom('quarantine').select('record').where('reason', 'like', `${items}: %`).execute();
      expect(held.map((q) => (JSON.parse(String(q.record)) as { id: number }).id).sort((a, b) => a - b)).toEqual(refusedIds);
    });

    it('inserts new keys with first_seen_at and synced_at set to now', async () => {
      expect(await upsert([item(1), item(2), item(3)], T1)).toEqual({ inserted: 3, updated: 0, unchanged: 0, rejected: 0 });
      const rows = await all();
      expect(rows.map((r) => r.id)).toEqual([1, 2, 3]);
      for (const r of rows) expect([r.first_seen_at, r.synced_at, r.deleted_at]).toEqual([T1, T1, null]);
    });

    it('writes nothing when every hash is unchanged', async () => {
      await upsert([item(1), item(2), item(3)], T1);
      expect(await upsert([item(1), item(2), item(3)], T2)).toEqual({ inserted: 0, updated: 0, unchanged: 3, rejected: 0 });
      expect((await all()).map((r) => r.synced_at)).toEqual([T1, T1, T1]);
    });

    it('updates only changed rows, keeping first_seen_at', async () => {
      await upsert([item(1), item(2), item(3)], T1);
      expect(await upsert([item(1), item(2, 'b'), item(3), item(4)], T2)).toEqual({ inserted: 1, updated: 1, unchanged: 2, rejected: 0 });
      const rows = await all();
      expect(rows.map((r) => [r.id, r.title, r.first_seen_at, r.synced_at])).toEqual([
        [1, 'item 1 a', T1, T1],
        [2, 'item 2 b', T1, T2],
        [3, 'item 3 a', T1, T1],
        [4, 'item 4 a', T2, T2],
      ]);
    });

    it('brings back a soft-deleted row even when its hash is unchanged', async () => {
      await upsert([item(1), item(2), item(3)], T1);
      expect(await t.store.softDeleteMissing(items, ['id'], new Set(['1', '2']), {}, T2)).toBe(1);
      expect(await upsert([item(1), item(2), item(3)], T3)).toEqual({ inserted: 0, updated: 1, unchanged: 2, rejected: 0 });
      const row3 = (await all())[2];
      expect([row3.first_seen_at, row3.synced_at, row3.deleted_at]).toEqual([T1, T3, null]);
    });

    it('writes exactly the changed, new and soft-deleted rows of a large page, and nothing else', async () => {
      // Large enough that PostgreSQL first looks up the page's held hashes and sends only the rest.
      const ids = Array.from({ length: 40 }, (_, i) => i + 1);
      await upsert(
        ids.map((id) => item(id)),
        T1,
      );
      expect(await t.store.softDeleteMissing(items, ['id'], new Set(ids.filter((id) => id !== 7).map(String)), {}, T2)).toBe(1);
      const next = [...ids.map((id) => item(id, id === 3 || id === 30 ? 'b' : 'a')), item(41)];
      expect(await upsert(next, T3)).toEqual({ inserted: 1, updated: 3, unchanged: 37, rejected: 0 });
      const written = (await all()).filter((r) => r.synced_at === T3).map((r) => r.id);
      expect(written).toEqual([3, 7, 30, 41]);
      expect((await all()).every((r) => r.deleted_at === null)).toBe(true);
      // The page after an all-new one skips the look-up (the statement writes only changes); the one after
      // a page with held rows looks up again: both ways write exactly the changes.
      const T4 = '2025-01-04T00:00:00.000Z';
      expect(await upsert([...next.map((r) => (r.id === 9 ? item(9, 'c') : r)), item(42)], T4)).toEqual({
        inserted: 1,
        updated: 1,
        unchanged: 40,
        rejected: 0,
      });
      expect((await all()).filter((r) => r.synced_at === T4).map((r) => r.id)).toEqual([9, 42]);
    });

    it('handles composite keys', async () => {
      const pairs = table('test_pairs');
      await createMirrorTable(t.store, pairs, ['chart_id', 'slug']);
      const pair = (chart_id: number, slug: string, v = 'a') => ({ chart_id, slug, raw: { v }, row_hash: `${chart_id}${slug}${v}` });
      const rows = [pair(1, 'a'), pair(1, 'b'), pair(2, 'a')];
      expect(await upsert(rows, T1, pairs, ['chart_id', 'slug'])).toEqual({ inserted: 3, updated: 0, unchanged: 0, rejected: 0 });
      const changed = [pair(1, 'a'), pair(1, 'b', 'z'), pair(2, 'a')];
      expect(await upsert(changed, T2, pairs, ['chart_id', 'slug'])).toEqual({ inserted: 0, updated: 1, unchanged: 2, rejected: 0 });
      const stored = await t.store.db
        .selectFrom(pairs)
        .select(['chart_id', 'slug', 'synced_at'])
        .orderBy('chart_id')
        .orderBy('slug')
        .execute();
      expect(stored).toEqual([
        { chart_id: 1, slug: 'a', synced_at: T1 },
        { chart_id: 1, slug: 'b', synced_at: T2 },
        { chart_id: 2, slug: 'a', synced_at: T1 },
      ]);
    });

    it('keeps the last of duplicate keys within one page', async () => {
      expect(await upsert([item(1, 'a'), item(2), item(1, 'b')], T1)).toEqual({ inserted: 2, updated: 0, unchanged: 0, rejected: 0 });
      expect((await all())[0].title).toBe('item 1 b');
      expect(await upsert([item(1, 'c'), item(1, 'b')], T2)).toEqual({ inserted: 0, updated: 0, unchanged: 1, rejected: 0 });
      expect((await all())[0].title).toBe('item 1 b');
    });

    it('reads back JSON as text, booleans, numbers and timestamps alike on both stores', async () => {
      await upsert([item(2), item(3)], T1);
      const [two, three] = await all();
      expect(typeof two.tags).toBe('string');
      expect(JSON.parse(two.tags)).toEqual(['x', 'a']);
      expect(JSON.parse(two.raw)).toEqual({ id: 2, version: 'a', nested: { ok: true } });
      expect(Boolean(two.active)).toBe(true);
      expect(Boolean(three.active)).toBe(false);
      expect(two.price).toBe(2.25);
      expect(two.id).toBe(2);
      expect(two.updated_at).toBe('2024-06-01T12:30:00.000Z');
    });

    it('keeps text and JSON exactly, whatever characters they hold', async () => {
      const text = 'quote " backslash \\ newline \n tab \t é 😀 \u2028 brackets {[,]} and "}],[" ';
      const awkward = {
        ...item(1),
        title: text,
        price: -1.234e-7,
        tags: [text, null, { deep: [true, 1e300] }],
        raw: { text, list: [1, 'x', null], nested: { a: { b: [false] } } },
      };
      await upsert([awkward, { ...item(2), price: 1.7976931348623157e308, tags: null }], T1);
      const [one, two] = await all();
      expect(one.title).toBe(text);
      expect(one.price).toBe(-1.234e-7);
      expect(JSON.parse(one.tags)).toEqual(awkward.tags);
      expect(JSON.parse(one.raw)).toEqual(awkward.raw);
      expect(two.price).toBe(1.7976931348623157e308);
      expect(two.tags).toBeNull();
    });

    if (dialect === 'sqlite') {
      it('writes a table whose key no unique index covers (no insert-first there), exactly as one with a primary key', async () => {
        const loose = table('test_loose');
        await sql`create table ${sql.table(loose)} (id integer not null, title text, raw text not null, row_hash text not null, first_seen_at text not null, synced_at text not null, deleted_at text)`.execute(
          t.store.db,
        );
        const write = (rows: Row[], now: string) =>
          upsert(
            rows.map(({ id, title, raw, row_hash }) => ({ id, title, raw, row_hash })),
            now,
            loose,
          );
        expect(await write([item(1), item(2)], T1)).toEqual({ inserted: 2, updated: 0, unchanged: 0, rejected: 0 });
        expect(await write([item(1), item(2, 'b'), item(3)], T2)).toEqual({ inserted: 1, updated: 1, unchanged: 1, rejected: 0 });
        expect((await all(loose)).map((r) => [r.id, r.title])).toEqual([
          [1, 'item 1 a'],
          [2, 'item 2 b'],
          [3, 'item 3 a'],
        ]);
      });
    }

    if (dialect === 'postgres') {
      it('looks up held hashes by primary-key probes, even with a plan made while the table was empty', async () => {
        // Prepared on an empty, never analyzed table, as in a first sync; the generic plan is kept.
        await sql`create index ${sql.id(`${items}_other`)} on ${sql.table(items)} (title, id) where deleted_at is null`.execute(t.store.db);
        const plan = await t.store.db.connection().execute(async (conn) => {
          await sql`set plan_cache_mode = force_generic_plan`.execute(conn);
          await sql.raw(`prepare held_rows as ${heldRowsQuery(items, ['id'], ['bigint'])}`).execute(conn);
          const { rows } = await sql<{ 'QUERY PLAN': string }>`explain execute held_rows('{1,2,3}')`.execute(conn);
          await sql`deallocate held_rows`.execute(conn);
          await sql`reset plan_cache_mode`.execute(conn);
          return rows.map((r) => r['QUERY PLAN']).join('\n');
        });
        expect(plan).toMatch(
          new RegExp(`Nested Loop[\\s\\S]*Index Scan using ${items}_pk on ${items}[\\s\\S]*Index Cond: \\(id = k\\.c0\\)`),
        );
        expect(plan).not.toMatch(new RegExp(`Seq Scan on ${items}|Hash Join`));
      });

      it('refuses JSON text that would spill into the next column or row, and writes nothing', async () => {
        const smuggler = { ...item(1), tags: '["x"]],[99,"smuggled"' };
        await expect(upsert([smuggler, item(2)], T1)).rejects.toThrow(`"${items}.tags" holds text that is not one JSON value`);
        expect(await all()).toEqual([]);
      });
    }

    it('writes pages far past the 65,535 bind-parameter cap', async () => {
      const rows = Array.from({ length: 12_000 }, (_, i) => item(i + 1));
      expect(await upsert(rows, T1)).toEqual({ inserted: 12_000, updated: 0, unchanged: 0, rejected: 0 });
      const changed = rows.map((r, i) => (i % 1000 === 0 ? item(i + 1, 'b') : r));
      expect(await upsert(changed, T2)).toEqual({ inserted: 0, updated: 12, unchanged: 11_988, rejected: 0 });
      const count = await t.store.db
        .selectFrom(items)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(12_000);
    });

    it('does nothing for an empty page', async () => {
      expect(await upsert([], T1)).toEqual({ inserted: 0, updated: 0, unchanged: 0, rejected: 0 });
      expect(await all()).toEqual([]);
    });
  });
}
