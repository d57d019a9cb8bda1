// A new SQLite file gets the schema prepared at build time (every migration and repeatable object
// replayed once) in one transaction: it must be exactly the schema of a file that replayed them, and an
// older database still replays its pending migrations one by one. PostgreSQL always replays.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator } from 'kysely';
import type { Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { migrationsHash } from '../../src/store/migration-files.js';
import { ColumnTypesMigrationProvider, runMigrations } from '../../src/store/run-migrations.js';
import { captureFreshSchema } from '../../src/store/sqlite/capture-fresh-schema.js';
import { type FreshSchema, freshSchemaFile, readFreshSchema } from '../../src/store/sqlite/fresh-schema.js';
import { schemaDump } from '../helpers/schema-dump.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { MIGRATIONS_DIR, MIRROR_SCHEMA } from '../../src/mirror-schema/index.js';

const opened: TestStore[] = [];
afterEach(async () => {
  while (opened.length) await opened.pop()!.cleanup();
});
const open = async (dialect: 'sqlite' | 'postgres', migrate: boolean) => {
  const t = await openTestStore(dialect, { migrate });
  opened.push(t);
  return t;
};
const target = (t: TestStore) => ({
  dialect: t.store.dialect,
  columnTypes: t.store.adapter.columnTypes,
  schema: t.schema,
  script: t.store.adapter.script,
});
const db = (t: TestStore) => t.store.db as unknown as Kysely<any>;
const ledger = async (t: TestStore) =>
  (await db(t).selectFrom('kysely_migration').select('name').orderBy('name').execute()).map((r) => r.name);

describe('fresh SQLite schema', () => {
  let prepared: FreshSchema;
  beforeAll(async () => {
    prepared = await captureFreshSchema(MIRROR_SCHEMA);
  });

  it('makes a new file exactly as replaying every migration does, in one go', async () => {
    const replayed = await open('sqlite', true);
    const fresh = await open('sqlite', false);
    let made = 0; // the statements were read: the prepared schema made the file, no migration did
    const tracked = {
      ...prepared,
      get statements() {
        made++;
        return prepared.statements;
      },
    };
    const outcome = await runMigrations(db(fresh), target(fresh), MIRROR_SCHEMA, async () => tracked);
    expect(outcome.error).toBeUndefined();
    expect(made).toBe(1);
    expect(outcome.results.map((r) => r.name)).toEqual(await ledger(replayed));
    expect(outcome.results.every((r) => r.status === 'Success')).toBe(true);
    expect(await schemaDump(fresh.store)).toBe(await schemaDump(replayed.store));
    expect(await ledger(fresh)).toEqual(await ledger(replayed));
    const objects = await db(fresh).selectFrom('schema_objects').select(['name', 'definition_hash']).execute();
    expect(objects).toEqual(await db(replayed).selectFrom('schema_objects').select(['name', 'definition_hash']).execute());
    expect(await (await fresh.openAnother()).migrate()).toEqual({ results: [] });
    // Where the connection runs no script, statement by statement: the same schema.
    const oneByOne = await open('sqlite', false);
    const { script: _, ...withoutScript } = target(oneByOne);
    expect((await runMigrations(db(oneByOne), withoutScript, MIRROR_SCHEMA, async () => prepared)).error).toBeUndefined();
    expect(await schemaDump(oneByOne.store)).toBe(await schemaDump(replayed.store));
  });

  it('replays the pending migrations of an older database one by one', async () => {
    const old = await open('sqlite', false);
    const provider = new ColumnTypesMigrationProvider(MIGRATIONS_DIR, target(old));
    expect((await new Migrator({ db: db(old), provider }).migrateTo('0016-view-keys')).error).toBeUndefined();
    let asked = 0;
    const outcome = await runMigrations(db(old), target(old), MIRROR_SCHEMA, async () => {
      asked++;
      return prepared;
    });
    expect(outcome.error).toBeUndefined();
    expect(asked).toBe(0);
    expect(outcome.results[0]).toEqual({ name: '0017-state-tables', status: 'Success' });
    expect(outcome.results.map((r) => r.name)).toEqual(prepared.migrations.filter((name) => name > '0016-view-keys'));
  });
});

describe('the prepared file', () => {
  const dir = `${mkdtempSync(join(tmpdir(), 'ds-mirror-fresh-'))}/migrations/`;
  beforeAll(() => mkdirSync(dir));
  afterAll(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

  it('is used only when prepared from the same migration files', async () => {
    writeFileSync(join(dir, '0001-core.mjs'), 'export async function up() {}\n');
    const schema = { migrationsHash: await migrationsHash(dir), migrations: ['0001-core'], statements: [], tables: [] };
    expect(await readFreshSchema(dir)).toBeUndefined(); // none built
    writeFileSync(freshSchemaFile(dir), JSON.stringify(schema));
    expect(await readFreshSchema(dir)).toEqual(schema);
    writeFileSync(join(dir, '0001-core.mjs'), 'export async function up(db) { await db.schema.createTable("x").execute(); }\n');
    expect(await readFreshSchema(dir)).toBeUndefined(); // a migration edited since
    writeFileSync(join(dir, '0001-core.mjs'), 'export async function up() {}\n');
    writeFileSync(join(dir, '0002-more.mjs'), 'export async function up() {}\n');
    expect(await readFreshSchema(dir)).toBeUndefined(); // a migration added since
  });
});

for (const dialect of dialects.filter((d) => d === 'postgres')) {
  it(`${dialect}: a fresh database replays every migration (the prepared schema is SQLite's)`, async () => {
    const t = await open(dialect, false);
    const outcome = await runMigrations(db(t), target(t), MIRROR_SCHEMA, async () => {
      throw new Error('asked for the SQLite schema');
    });
    expect(outcome.error).toBeUndefined();
    expect(outcome.results.map((r) => r.name)).toEqual(await ledger(t));
  });
}
