// @end-to-end
// One record the store refuses must not cost the rest of its page: it goes to quarantine with the
// reason and every other row is written, on both stores; a key that cannot identify a row (object,
// list, boolean, fraction) is quarantined, never inserted and then counted as a deletion.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMirrorTable, dialects, openTestStore } from '../helpers/stores.js';
import { syncOnce } from '../helpers/mirror.js';
import { listOf, startHostileServer, type HostileServer } from './hostile-server.js';

let server: HostileServer;
beforeAll(async () => void (server = await startHostileServer()));
afterAll(() => server.close());

const GOOD = 500;
/** 500 good charts, ids 1..500, with `bad` inserted in the middle of page 3. */
function chartsWith(bad: unknown[]): unknown[] {
  const good = Array.from({ length: GOOD }, (_, i) => ({ id: i + 1, title: `chart ${i + 1}`, dashboards: ['DeFi'] }));
  return [...good.slice(0, 250), ...bad, ...good.slice(250)];
}

async function quarantined(store: import('../../src/store/index.js').Store): Promise<{ stream: string; reason: string }[]> {
  return store.db.selectFrom('quarantine').select(['stream', 'reason']).orderBy('id').execute() as never;
}

for (const dialect of dialects) {
  describe(`one bad record in a page (${dialect})`, () => {
    it('quarantines a NUL in a text or JSON field and writes the 500 others', async () => {
      const bad = [
        { id: 9001, title: 'nul \u0000 here', dashboards: [] },
        { id: 9002, title: 'ok', dashboards: ['x\u0000y'] },
      ];
      const records = chartsWith(bad);
      server.serve(listOf((page, limit) => records.slice((page - 1) * limit, page * limit)));
      const t = await openTestStore(dialect);
      try {
        const result = await syncOnce(t.store, { url: server.url, apiKey: 'k' }, ['charts']);
        expect(result.streams[0]).toMatchObject({ fetched: GOOD + 2, inserted: GOOD, errors: 2, outcome: 'partial' });
        const rows = await t.store.db.selectFrom('charts').select('id').execute();
        expect(rows).toHaveLength(GOOD);
        const reasons = await quarantined(t.store);
        expect(reasons).toHaveLength(2);
        expect(reasons.every((r) => r.stream === 'charts' && r.reason.includes('NUL'))).toBe(true);
      } finally {
        await t.cleanup();
      }
    });

    it('quarantines keys that are an object, list, boolean or fraction, and a second --full pass neither re-inserts nor deletes them', async () => {
      const bad = [
        { id: { a: 1 }, title: 'object key' },
        { id: [7], title: 'list key' },
        { id: true, title: 'boolean key' },
        { id: 1.5, title: 'fraction key' },
      ];
      const records = chartsWith(bad);
      server.serve(listOf((page, limit) => records.slice((page - 1) * limit, page * limit)));
      const t = await openTestStore(dialect);
      try {
        const first = await syncOnce(t.store, { url: server.url, apiKey: 'k' }, ['charts'], { settings: { mode: 'full' } });
        expect(first.streams[0]).toMatchObject({ inserted: GOOD, deleted: 0, errors: 4 });
        const second = await syncOnce(t.store, { url: server.url, apiKey: 'k' }, ['charts'], { settings: { mode: 'full' } });
        expect(second.streams[0]).toMatchObject({ inserted: 0, updated: 0, deleted: 0, unchanged: GOOD, errors: 4 });
        const rows = await t.store.db.selectFrom('charts').select('id').where('deleted_at', 'is', null).execute();
        expect(rows).toHaveLength(GOOD);
        expect((await quarantined(t.store)).every((r) => r.reason.includes('a key must be a text or an integer'))).toBe(true);
      } finally {
        await t.cleanup();
      }
    });

    it('quarantines a text where the key column is an integer and writes the rest', async () => {
      const records = chartsWith([{ id: '12x', title: 'text id', dashboards: [] }]);
      server.serve(listOf((page, limit) => records.slice((page - 1) * limit, page * limit)));
      const t = await openTestStore(dialect);
      try {
        const result = await syncOnce(t.store, { url: server.url, apiKey: 'k' }, ['charts']);
        expect(result.streams[0]).toMatchObject({ inserted: GOOD, errors: 1, outcome: 'partial' });
        expect(await t.store.db.selectFrom('charts').select('id').execute()).toHaveLength(GOOD);
        // PostgreSQL: refused before the write (bigint); SQLite: the integer primary key refuses it (datatype mismatch).
        expect((await quarantined(t.store))[0]!.reason).toMatch(
          dialect === 'postgres' ? /^charts: column "id" \(bigint\)/ : /^charts: datatype mismatch/,
        );
      } finally {
        await t.cleanup();
      }
    });
  });

  describe(`one bad parent in a fan-out (${dialect})`, () => {
    it("quarantines the rows of the chart the store refuses and writes the other charts' rows", async () => {
      server.serve((url, req, res) => {
        const data = /^\/v1\/charts\/(\d+)\/data$/.exec(url.pathname);
        if (!data) return listOf((page) => (page === 1 ? [1, 2, 3].map((id) => ({ id, title: `chart ${id}` })) : []))(url, req, res);
        const id = Number(data[1]);
        const rows = Array.from({ length: 5 }, (_, i) => ({ day: i, value: id === 2 && i === 3 ? 'bad \u0000 value' : `v${i}` }));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data: rows }));
      });
      const t = await openTestStore(dialect);
      try {
        await syncOnce(t.store, { url: server.url, apiKey: 'k' }, ['charts']);
        const result = await syncOnce(t.store, { url: server.url, apiKey: 'k' }, ['chart-rows'], {
          settings: { selection: { charts: { all: true } } },
        });
        const rows = await t.store.db.selectFrom('chart_rows').select(['chart_id']).execute();
        const byChart = (id: number) => rows.filter((r) => Number(r.chart_id) === id).length;
        if (dialect === 'postgres') {
          // jsonb cannot hold NUL: chart 2 is quarantined, charts 1 and 3 are written.
          expect(result.streams[0]).toMatchObject({ outcome: 'partial', errors: 1 });
          expect([byChart(1), byChart(2), byChart(3)]).toEqual([5, 0, 5]);
          expect((await quarantined(t.store))[0]).toMatchObject({ stream: 'chart-rows' });
        } else {
          expect(result.streams[0]).toMatchObject({ outcome: 'success' });
          expect([byChart(1), byChart(2), byChart(3)]).toEqual([5, 5, 5]);
        }
      } finally {
        await t.cleanup();
      }
    });
  });

  describe(`store-level isolation (${dialect})`, () => {
    it('writes every row of a page but the ones the store refuses, each quarantined with the reason', async () => {
      const t = await openTestStore(dialect);
      try {
        await createMirrorTable(t.store, 'items', ['id']);
        const row = (id: number, extra: Record<string, unknown> = {}) => ({
          id,
          title: `item ${id}`,
          price: 1.5,
          active: true,
          tags: ['a'],
          updated_at: '2026-11-20T10:00:00Z',
          raw: JSON.stringify({ id }),
          row_hash: `h${id}`,
          ...extra,
        });
        const rows = Array.from({ length: 200 }, (_, i) => row(i + 1));
        // A number column holding text, a time that is no time (caught only by the row-by-row retry),
        // an unpaired surrogate in a text column.
        rows[50] = row(51, { price: 'cheap' });
        rows[100] = row(101, { updated_at: 'not a time' });
        rows[150] = row(151, { title: 'half \ud800 pair' });
        const counts = await t.store.transaction((tx) => tx.upsertChanged('items', ['id'], rows, '2026-11-20T10:00:00Z', 'items-stream'));
        const stored = await t.store.db.selectFrom('items').select('id').execute();
        const bad = await quarantined(t.store);
        if (dialect === 'postgres') {
          expect(counts).toMatchObject({ inserted: 197, rejected: 3, unchanged: 0 });
          expect(stored).toHaveLength(197);
          expect(bad.map((b) => b.stream)).toEqual(['items-stream', 'items-stream', 'items-stream']);
          expect(bad.map((b) => b.reason).join('\n')).toMatch(/price[\s\S]*surrogate[\s\S]*timestamp/);
        } else {
          expect(counts).toMatchObject({ inserted: 200, rejected: 0 });
          expect(stored).toHaveLength(200);
        }
      } finally {
        await t.cleanup();
      }
    });
  });
}
