// PostgreSQL only (SQLite has no schemas): a mirror's migrations read their own schema, never the others of
// the same database. Kysely's Migrator listed every schema's tables with their columns, so another schema
// dropping a column at that moment (another mirror running 0018 beside it: seen in a full test run on a
// busy machine) failed the open with 'column "high_water" of relation "stream_state" does not exist'.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { schemaIntrospector } from '../../src/store/postgres/schema-introspector.js';
import { openTestStore, type TestStore } from '../helpers/stores.js';

describe("the migrator's view of a shared PostgreSQL database", () => {
  let t: TestStore;
  const other = `other_${randomBytes(4).toString('hex')}`;
  beforeAll(async () => {
    t = await openTestStore('postgres');
    await sql.raw(`create schema "${other}"; create table "${other}".kysely_migration (name text)`).execute(t.store.db);
  });
  afterAll(async () => {
    await sql.raw(`drop schema if exists "${other}" cascade`).execute(t.store.db);
    await t.cleanup();
  });

  it("lists the mirror's schema and its tables only", async () => {
    const introspector = schemaIntrospector(t.store.db, t.schema!);
    expect(await introspector.getSchemas()).toEqual([{ name: t.schema }]);
    const tables = await introspector.getTables();
    expect(tables.map((x) => x.schema)).toEqual(tables.map(() => t.schema));
    expect(tables.map((x) => x.name)).toEqual(expect.arrayContaining(['kysely_migration', 'assets', 'stream_state']));
    expect(tables.find((x) => x.name === 'v_assets')?.isView).toBe(true);
  });

  it('a mirror opened again beside the other schema migrates nothing and keeps its own ledger', async () => {
    const again = await t.openAnother();
    const ledger = await again.db.selectFrom('kysely_migration').select('name').execute();
    expect(ledger.map((r) => r.name)).toContain('0001-core');
  });
});
