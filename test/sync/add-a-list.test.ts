// @end-to-end
// docs/development.md's "Adding a /v1 list", walked for a list the service does not have (/v1/mascots,
// 25 records, 10 a page): its catalog entry (with its published size), its one migration (the table,
// the mirror's columns and the live-key index), and the sandbox's route that serves it. Then the list is
// planned before any sync (priced from its published size, as an estimate), synced by the generic runner,
// planned again (from the mirror), and listed by v_streams with its run's outcome and its live rows, on both
// stores, with no change to the views (made from the catalog).
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Route, type Sandbox } from '../../sandbox/index.js';
import { runCost } from '../../src/budget/index.js';
import { pageNumber } from '../../src/catalog/paginator.js';
import { allStreams } from '../../src/catalog/index.js';
import type { ListStream } from '../../src/catalog/types.js';
import { MIGRATIONS_DIR, mirrorSchema } from '../../src/mirror-schema/index.js';
import { runMigrations } from '../../src/store/run-migrations.js';
import { runSync } from '../../src/sync/engine.js';
import { fastClient, settings, silent, totals } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const MASCOTS = Array.from({ length: 25 }, (_, i) => ({ id: i + 1, name: `Mascot ${i + 1}` }));

/** Step 1: the catalog entry, as it would stand in src/catalog/v1.ts's v1Lists. */
const mascots: ListStream = {
  kind: 'list',
  name: 'mascots',
  description: 'Mascots (a made-up list)',
  path: '/v1/mascots',
  paginator: pageNumber(10),
  records: 'data',
  table: 'mascots',
  key: ['id'],
  columns: { id: 'id', name: 'name' },
  required: ['id'],
  detectDeletes: true,
  published: { rows: 1_000 },
};

/** Step 2: the one migration, as schema/migrations/NNNN-mascots.ts would hold it. */
const MIGRATION = `import { sql } from 'kysely';
import { mirrored } from '${pathToFileURL(join(MIGRATIONS_DIR, '../columns.ts')).href}';
export async function up(db, t) {
  await mirrored(db.schema.createTable('mascots').addColumn('id', t.bigint, (c) => c.primaryKey()).addColumn('name', t.text), t).execute();
  await db.schema.createIndex('mascots_live_keys').on('mascots').column('id').where(sql.ref('deleted_at'), 'is', null).execute();
}
`;

/** The mirror's migrations and the new one, in a folder of their own. */
function migrationsWithMascots(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-add-a-list-'));
  for (const file of readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.ts'))) {
    writeFileSync(join(dir, file), `export { up } from '${pathToFileURL(join(MIGRATIONS_DIR, file)).href}';\n`);
  }
  writeFileSync(join(dir, '9999-mascots.ts'), MIGRATION);
  return `${dir}/`;
}

/** Step 3: the sandbox's route, as sandbox/routes/ would add it to v1Routes: `page`/`limit`, a short page ends it. */
const mascotRoute: Route = {
  path: '/v1/mascots',
  auth: 'api-key',
  handle: ({ query }) => {
    const page = Number(query.get('page') ?? 1);
    const limit = Number(query.get('limit') ?? 10);
    return { data: MASCOTS.slice((page - 1) * limit, page * limit) };
  },
};

for (const dialect of dialects) {
  describe(`adding a /v1 list: an entry, a migration, a route (${dialect})`, () => {
    let sandbox: Sandbox;
    let t: TestStore;
    let folder: string;
    beforeAll(async () => {
      sandbox = await startSandbox({ start: PINNED_START, scale: 0.05, seed: 3, routes: [mascotRoute] });
      t = await openTestStore(dialect);
      folder = migrationsWithMascots();
    });
    afterAll(async () => {
      await t?.cleanup();
      await sandbox?.close();
      if (folder) rmSync(folder, { recursive: true, force: true });
    });

    it('the migration makes its table', async () => {
      // The catalog with its entry, as src/catalog/ would hold it: the views, triggers and catalog_streams are
      // made from the catalog, so no file of schema/views/ changes for it.
      const outcome = await runMigrations(t.store.db, t.store.adapter, { ...mirrorSchema([...allStreams(), mascots]), folder });
      expect(outcome).toEqual({ results: [{ name: '9999-mascots', status: 'Success' }] });
    });

    it('is planned from its published size, synced by the generic runner, then planned from the mirror', async () => {
      // Never read: its published 1,000 rows at 10 a page (101 pages), and up to 3 read ahead past the end.
      expect(await runCost(t.store, settings(), mascots)).toMatchObject({ requests: 104, estimated: true, readAhead: 3, family: 'v1' });

      const client = fastClient(sandbox);
      try {
        const result = await runSync({ client, store: t.store, logger: silent, settings: settings(), streams: [mascots] });
        expect(result.streams.map((s) => [s.stream, s.outcome, s.error ?? null])).toEqual([['mascots', 'success', null]]);
        expect(totals(result)).toMatchObject({ inserted: 25, fetched: 25 });
        // Three pages: two full, one short (and the read ahead's page past the end, at most).
        expect(result.streams[0]!.requests).toBeGreaterThanOrEqual(3);
      } finally {
        await client.close();
      }
      const names = await sql<{ name: string }>`select name from mascots where deleted_at is null order by id`.execute(t.store.db);
      expect(names.rows.map((r) => r.name)).toEqual(MASCOTS.map((m) => m.name));

      // Read once: the 25 rows its pages held, 10 a page, priced without estimate or read ahead.
      expect(await runCost(t.store, settings(), mascots)).toMatchObject({ requests: 3, estimated: false, readAhead: 0 });
    });

    it('v_streams lists it with its table, its run and its live rows', async () => {
      await sql`update mascots set deleted_at = synced_at where id = 25`.execute(t.store.db);
      const row = await sql<{ table_name: string; kind: string; last_outcome: string; live_rows: number | string }>`
        select table_name, kind, last_outcome, live_rows from v_streams where stream = 'mascots'`.execute(t.store.db);
      const read = row.rows.map((r) => ({ ...r, live_rows: Number(r.live_rows) }));
      // 25 synced, one soft-deleted since: its live rows, counted as for every stream of the catalog.
      expect(read).toEqual([{ table_name: 'mascots', kind: 'list', last_outcome: 'success', live_rows: 24 }]);
    });
  });
}
