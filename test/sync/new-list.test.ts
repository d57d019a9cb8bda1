// The engine knows no endpoint: adding a /v1 list is one catalog entry and one table (a migration). This test
// adds a list the catalog does not have (the glossary read again into a table of its own, ten terms a page so
// it pages) and syncs it through the same runSync as every stream: the whole list, nothing on a re-run,
// changes and removals after the service moves on, on both stores.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { pageNumber } from '../../src/catalog/paginator.js';
import type { ListStream } from '../../src/catalog/types.js';
import { POSTGRES_COLUMN_TYPES } from '../../src/store/postgres/postgres-adapter.js';
import { SQLITE_COLUMN_TYPES } from '../../src/store/sqlite/sqlite-adapter.js';
import { runSync } from '../../src/sync/engine.js';
import { mirrored } from '../../schema/columns.js';
import { fastClient, liveRecords, settings, silent, totals } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

/** The one catalog entry. */
const terms: ListStream = {
  kind: 'list',
  name: 'glossary-terms',
  description: 'Glossary entries, ten a page',
  path: '/v1/glossary',
  paginator: pageNumber(10),
  records: 'data',
  table: 'glossary_terms',
  key: ['id'],
  columns: { id: 'id', title: 'title' },
  required: ['id'],
  detectDeletes: true,
};

/** The one migration. */
async function createTable(t: TestStore): Promise<void> {
  const types = t.store.dialect === 'postgres' ? POSTGRES_COLUMN_TYPES : SQLITE_COLUMN_TYPES;
  const table = t.store.db.schema.createTable('glossary_terms').addColumn('id', types.bigint, (c) => c.primaryKey());
  await mirrored(table.addColumn('title', types.text), types).execute();
}

for (const dialect of dialects) {
  describe(`a list added as one entry and one table (${dialect})`, () => {
    let sandbox: Sandbox;
    let t: TestStore;
    beforeAll(async () => {
      sandbox = await startSandbox({ start: PINNED_START, scale: 0.5, seed: 5 });
      t = await openTestStore(dialect);
      await createTable(t);
    });
    afterAll(async () => {
      await t?.cleanup();
      await sandbox?.close();
    });

    const sync = async () => {
      const client = fastClient(sandbox);
      try {
        // 10% removed at once is beyond maxDeleteShare, which would hold it back (held-deletions tests).
        const result = await runSync({
          client,
          store: t.store,
          logger: silent,
          settings: settings({ maxDeleteShare: 0.5 }),
          streams: [terms],
        });
        expect(result.streams.map((s) => [s.stream, s.outcome, s.error ?? null])).toEqual([['glossary-terms', 'success', null]]);
        return totals(result);
      } finally {
        await client.close();
      }
    };
    /** What the service serves now: the whole glossary in one page. */
    const served = async () => {
      const res = await fetch(`${sandbox.url}/v1/glossary?limit=1000`, { headers: { 'x-api-key': sandbox.apiKey } });
      const { data } = (await res.json()) as { data: { id: number; title: string }[] };
      return new Map(data.map((r) => [String(r.id), r]));
    };

    it('mirrors every page, then writes nothing on a re-run', async () => {
      const before = await served();
      expect(before.size).toBeGreaterThan(20); // three pages or more
      const first = await sync();
      expect(first.inserted).toBe(before.size);
      expect([...(await liveRecords(t.store, 'glossary_terms', ['id'])).keys()].sort()).toEqual([...before.keys()].sort());
      const again = await sync();
      expect(again.inserted + again.updated + again.deleted).toBe(0);
    });

    it('follows the service: changed rows updated, removed ones soft-deleted', async () => {
      const before = await served();
      await sandbox.advance({ seconds: 86_400, updateFraction: 0.2, addFraction: 0, removeFraction: 0.1 });
      const now = await served();
      const removed = [...before.keys()].filter((id) => !now.has(id));
      const retitled = [...now.keys()].filter((id) => before.has(id) && before.get(id)!.title !== now.get(id)!.title);
      expect(removed.length).toBeGreaterThan(0);
      const after = await sync();
      expect(after.deleted).toBe(removed.length);
      expect(after.updated).toBeGreaterThanOrEqual(retitled.length);
      const live = await liveRecords(t.store, 'glossary_terms', ['id']);
      expect([...live.keys()].sort()).toEqual([...now.keys()].sort());
      const titles = await sql<{ id: number; title: string }>`select id, title from glossary_terms where deleted_at is null`.execute(
        t.store.db,
      );
      expect(titles.rows.map((r) => [String(r.id), r.title]).sort()).toEqual([...now.values()].map((r) => [String(r.id), r.title]).sort());
    });
  });
}
