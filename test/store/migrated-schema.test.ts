// Migrations are told their dialect instead of guessing it from a column type: the schema they build
// must be the one the guessing code built. The fixtures were dumped from a database migrated by that
// code (through 0016, the last migration it had), so a database it migrated keeps working unchanged.
import { readFileSync } from 'node:fs';
import { Migrator } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../src/store/index.js';
import { POSTGRES_COLUMN_TYPES } from '../../src/store/postgres/postgres-adapter.js';
import { ColumnTypesMigrationProvider } from '../../src/store/run-migrations.js';
import { SQLITE_COLUMN_TYPES } from '../../src/store/sqlite/sqlite-adapter.js';
import { schemaDump } from '../helpers/schema-dump.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const LAST_OLD_MIGRATION = '0016-view-keys';
const COLUMN_TYPES = { sqlite: SQLITE_COLUMN_TYPES, postgres: POSTGRES_COLUMN_TYPES };

for (const dialect of dialects) {
  describe(`migrated schema (${dialect})`, () => {
    let t: TestStore;
    afterEach(() => t.cleanup());

    it(`through ${LAST_OLD_MIGRATION} equals the schema the dialect-guessing migrations built`, async () => {
      t = await openTestStore(dialect, { migrate: false });
      const provider = new ColumnTypesMigrationProvider(MIGRATIONS_DIR, { dialect, columnTypes: COLUMN_TYPES[dialect], schema: t.schema });
      const migrator = new Migrator({ db: t.store.db, provider, migrationTableSchema: t.schema });
      const { error } = await migrator.migrateTo(LAST_OLD_MIGRATION);
      expect(error).toBeUndefined();
      const expected = readFileSync(new URL(`./fixtures/schema-0016-${dialect}.txt`, import.meta.url), 'utf8');
      expect(`${await schemaDump(t.store)}\n`).toBe(expected);
    });
  });
}
