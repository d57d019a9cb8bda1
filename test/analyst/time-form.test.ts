// One time form everywhere: base tables, the versions kept in row_history and the analyst views hold
// times as timestamptz on PostgreSQL and as ISO 8601 UTC text with milliseconds on SQLite (`/v1`'s Unix
// seconds and the token-unlock dates without milliseconds included), after a sync and after upgrading a
// mirror whose rows were written before migration 0042.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYST_VIEWS } from '../../schema/views/index.js';
import type { Store } from '../../src/store/index.js';
import { MIGRATIONS_DIR } from '../../src/mirror-schema/index.js';
import { ColumnTypesMigrationProvider, schemaMigrator } from '../../src/store/run-migrations.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { type AnalystMirror, analystMirror } from './analyst-fixture.js';

const ISO_GLOB = '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z';
const DAY_GLOB = '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]';

/** Base-table columns of a type on PostgreSQL (the same columns hold text on SQLite). */
async function columnsOfType(pg: Store, type: string): Promise<[string, string][]> {
  const { rows } = await sql<{ table: string; column: string; type: string }>`
    select c.table_name as "table", c.column_name as "column", c.data_type as type
    from information_schema.columns c join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'`.execute(pg.db);
  // No time is left a number: a column named as a time is a time.
  const named = rows.filter((r) => /(_at|_date)$/.test(r.column) && !['timestamp with time zone', 'date'].includes(r.type));
  expect(named.map((r) => `${r.table}.${r.column} ${r.type}`)).toEqual([]);
  return rows.filter((r) => r.type === type).map((r) => [r.table, r.column]);
}

/** `table.column: n` for each SQLite column holding a value not in `glob` (text of the one form). */
async function offForm(lite: Store, columns: readonly (readonly [string, string])[], glob: string): Promise<string[]> {
  const off: string[] = [];
  for (const [table, column] of columns) {
    const { rows } = await sql
      .raw<{ n: number }>(
        `select count(*) as n from "${table}" where "${column}" is not null and (typeof("${column}") <> 'text' or "${column}" not glob '${glob}')`,
      )
      .execute(lite.db);
    if (Number(rows[0]!.n) > 0) off.push(`${table}.${column}: ${rows[0]!.n}`);
  }
  return off;
}

describe('one time form after a sync', () => {
  let mirror: AnalystMirror;
  let lite: TestStore;
  let pg: TestStore;

  // Synced, the sandbox's clock advanced a day and synced again: history holds versions.
  beforeAll(async () => {
    mirror = await analystMirror();
    ({ lite, pg } = mirror);
  }, 300_000);
  afterAll(() => mirror?.cleanup());

  it('base tables: every time is timestamptz on PostgreSQL and ISO text with milliseconds on SQLite, every day a date', async () => {
    const columns = await columnsOfType(pg.store, 'timestamp with time zone');
    expect(columns).toContainEqual(['chains', 'updated_at']);
    expect(columns).toContainEqual(['token_unlock_assets', 'genesis_date']);
    expect(await offForm(lite.store, columns, ISO_GLOB)).toEqual([]);
    const days = await columnsOfType(pg.store, 'date');
    expect(days).toContainEqual(['sec_filings', 'filing_date']);
    expect(await offForm(lite.store, days, DAY_GLOB)).toEqual([]);
  });

  it('analyst views, history views among them: every time and day in its one form on SQLite', async () => {
    const kinds = (kind: string) =>
      ANALYST_VIEWS.flatMap((v) => v.columns.filter((c) => c.kind === kind).map((c) => [v.name, c.name] as const));
    expect(await offForm(lite.store, kinds('timestamp'), ISO_GLOB)).toEqual([]);
    expect(await offForm(lite.store, kinds('date'), DAY_GLOB)).toEqual([]);
    const kept = await sql<{
      n: number;
    }>`select count(*) as n from v_transparency_ratings_history where valid_to is not null and updated_at is not null`.execute(
      lite.store.db,
    );
    expect(Number(kept.rows[0]!.n)).toBeGreaterThan(0); // previous versions were read, not only live rows
  });
});

/** Applies the migrations before 0041, as a mirror of the release before had them. */
async function migrateBefore(t: TestStore, upgrade: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-time-form-'));
  try {
    for (const file of readdirSync(MIGRATIONS_DIR).filter((f) => /^\d{4}-.*\.ts$/.test(f) && f < upgrade)) {
      const target = pathToFileURL(join(MIGRATIONS_DIR, file)).href;
      writeFileSync(join(dir, file.replace(/\.ts$/, '.mjs')), `export { up } from ${JSON.stringify(target)};\n`);
    }
    const { adapter } = t.store;
    const { error } = await schemaMigrator(t.store.db, new ColumnTypesMigrationProvider(`${dir}/`, adapter), adapter).migrateToLatest();
    expect(error).toBeUndefined();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const SECONDS = 1_645_747_200; // 2022-02-25T00:00:00Z
const WANT = '2022-02-25T00:00:00.000Z';

describe.each(dialects)('upgrading times written before migration 0042 on %s', (dialect) => {
  let t: TestStore;
  afterAll(() => t?.cleanup());

  it('converts base-table times, kept versions and token-unlock dates to the one form', async () => {
    t = await openTestStore(dialect, { migrate: false });
    await migrateBefore(t, '0041');
    const db = t.store.db as any;
    const mirrored = { raw: '{}', row_hash: 'h', first_seen_at: WANT, synced_at: WANT };
    await db
      .insertInto('chains')
      .values({ id: 1, slug: 'c', title: 'C', updated_at: SECONDS, ...mirrored })
      .execute();
    await db
      .insertInto('assets')
      .values({
        id: 1,
        code: 'A',
        title: 'A',
        slug: 'a',
        asset_class: 'token',
        updated_at: SECONDS,
        price_updated_at: SECONDS + 1,
        ...mirrored,
      })
      .execute();
    await db
      .insertInto('token_unlock_assets')
      .values({ id: 'u', genesis_date: '2022-02-25T00:00:00Z', ...mirrored })
      .execute();
    const typed = JSON.stringify({ id: 1, slug: 'c', title: 'old', updated_at: SECONDS - 86_400 });
    await db
      .insertInto('row_history')
      .values({
        table_name: 'chains',
        row_key: '1',
        raw: '{}',
        typed_row: typed,
        row_hash: 'g',
        first_seen_at: WANT,
        valid_from: WANT,
        valid_to: WANT,
        change: 'updated',
      })
      .execute();

    const migrated = await t.store.migrate();
    expect(migrated.error).toBeUndefined();
    const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : v);
    const chain = await db.selectFrom('chains').select('updated_at').executeTakeFirstOrThrow();
    const asset = await db.selectFrom('assets').select(['updated_at', 'price_updated_at']).executeTakeFirstOrThrow();
    const unlock = await db.selectFrom('token_unlock_assets').select('genesis_date').executeTakeFirstOrThrow();
    expect([chain.updated_at, asset.updated_at, asset.price_updated_at, unlock.genesis_date].map(iso)).toEqual([
      WANT,
      WANT,
      '2022-02-25T00:00:01.000Z',
      WANT,
    ]);
    const versions = await db.selectFrom('v_chains_history').select(['title', 'updated_at']).orderBy('updated_at').execute();
    expect(versions.map((v: any) => [v.title, iso(v.updated_at)])).toEqual([
      ['old', '2022-02-24T00:00:00.000Z'],
      ['C', WANT],
    ]);
  });
});
