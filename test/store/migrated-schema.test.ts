// @end-to-end
// (For its bound, not a sync: each case replays the mirror's migrations and makes its views, comments and
// history triggers, about a second of CPU between the test and the server, over a unit's 20 s at load 40.)
// Frozen migrations and repeatable objects. Migrations are told their dialect instead of guessing it from
// a column type: the tables they build through 0016 must be the ones the guessing code built (the
// fixtures were dumped from a database that code migrated; the views and comments it made then are left
// out, and so are its history triggers: all are now made after the migrations from today's definitions).
// And an upgrade from the oldest schema, or from 0016, ends with exactly the schema of a fresh install,
// views, comments and triggers included; a definition that changed (or a view someone dropped) is made
// again on the next open. The history triggers: test/store/history-triggers.test.ts.
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../src/mirror-schema/index.js';
import { POSTGRES_COLUMN_TYPES } from '../../src/store/postgres/postgres-adapter.js';
import { ColumnTypesMigrationProvider, schemaMigrator } from '../../src/store/run-migrations.js';
import { SQLITE_COLUMN_TYPES } from '../../src/store/sqlite/sqlite-adapter.js';
import type { Dialect } from '../../src/store/types.js';
import { schemaDump } from '../helpers/schema-dump.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const LAST_OLD_MIGRATION = '0016-view-keys';
const COLUMN_TYPES = { sqlite: SQLITE_COLUMN_TYPES, postgres: POSTGRES_COLUMN_TYPES };

/** Migrates a store opened without migrations to `target` (inclusive), as an older release left it. */
async function migrateTo(t: TestStore, dialect: Dialect, target: string): Promise<void> {
  const provider = new ColumnTypesMigrationProvider(MIGRATIONS_DIR, { dialect, columnTypes: COLUMN_TYPES[dialect], schema: t.schema });
  const migrator = schemaMigrator(t.store.db, provider, t.store.adapter);
  const { error } = await migrator.migrateTo(target);
  expect(error).toBeUndefined();
}

for (const dialect of dialects) {
  describe(`migrated schema (${dialect})`, () => {
    // One fresh install per dialect, dumped before any case runs: the upgrades compare with its dump, and the
    // last case changes it. A PostgreSQL fresh install is a database copied from the template.
    let fresh: TestStore;
    let freshDump: string;
    beforeAll(async () => {
      fresh = await openTestStore(dialect);
      freshDump = await schemaDump(fresh.store);
    });
    afterAll(() => fresh?.cleanup());
    const opened: TestStore[] = [];
    afterEach(async () => {
      while (opened.length) await opened.pop()!.cleanup();
    });
    const openEmpty = async () => {
      const t = await openTestStore(dialect, { migrate: false });
      opened.push(t);
      return t;
    };
    const expectFreshInstall = async (old: TestStore) => {
      const outcome = await old.store.migrate();
      expect(outcome.error).toBeUndefined();
      expect(freshDump).toMatch(/transparency_ratings_keep_history[\s\S]*typed_row/); // the history triggers are in both
      expect(await schemaDump(old.store)).toBe(freshDump);
    };

    it(`through ${LAST_OLD_MIGRATION}: the tables the dialect-guessing migrations built; an upgrade from there ends with the schema of a fresh install`, async () => {
      const old = await openEmpty();
      await migrateTo(old, dialect, LAST_OLD_MIGRATION);
      const expected = readFileSync(new URL(`./fixtures/schema-0016-${dialect}.txt`, import.meta.url), 'utf8');
      expect(tablesOnly(`${await schemaDump(old.store)}\n`)).toBe(tablesOnly(expected));
      await expectFreshInstall(old);
    });

    it('an upgrade from 0001-core ends with the schema of a fresh install', async () => {
      const old = await openEmpty();
      await migrateTo(old, dialect, '0001-core');
      await expectFreshInstall(old);
    });

    // Last: it changes the fresh install.
    it('makes the views again when their definition changed or one went missing', async () => {
      const t = fresh;
      await sql.raw('drop view v_changes').execute(t.store.db);
      await t.store.db.updateTable('schema_objects').set({ definition_hash: 'an older definition' }).execute();
      const again = await t.openAnother();
      expect(await again.db.selectFrom('v_changes').selectAll().execute()).toEqual([]);
      const ledger = await again.db.selectFrom('schema_objects').select('definition_hash').where('name', '=', 'analyst-layer').execute();
      expect(ledger).toEqual([{ definition_hash: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    });
  });
}

/**
 * A dump without the analyst views, comments and history triggers (made after the migrations now, from
 * today's code): on PostgreSQL the triggers and their functions are a block each.
 */
function tablesOnly(dump: string): string {
  return dump
    .replace(/ -- .*$/gm, '')
    .split('\n\n')
    .filter((block) => !block.startsWith('view v_') && !/^v_[a-z_]+: /.test(block))
    .filter((block) => !/^(trigger [a-z_]+_keep_history\n|CREATE TRIGGER [a-z_]+_keep_history |[a-z_]+_keep_history: )/.test(block))
    .map((block) =>
      block
        .split('\n')
        .filter((line) => !/^v_[a-z_]+[.: ]/.test(line) && !line.startsWith('commented:'))
        .join('\n'),
    )
    .filter((block) => block.trim() !== '')
    .join('\n\n')
    .trim();
}
