// @end-to-end
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { pino } from 'pino';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { DsMirrorError, errorAction } from '../../src/errors.js';
import { openStore, parseStoreUrl, redactUrl } from '../../src/store/index.js';
import { runMigrations } from '../../src/store/run-migrations.js';
import { dialects, openTestStore } from '../helpers/stores.js';
import type { TestStore } from '../helpers/stores.js';
import { runStoreChild } from './store-child-runner.js';
import { MIRROR_SCHEMA } from '../../src/mirror-schema/index.js';

const CORE_TABLES = ['sync_runs', 'sync_run_streams', 'stream_state', 'quarantine', 'leases'];

for (const dialect of dialects) {
  describe(`migrations (${dialect})`, () => {
    let t: TestStore;
    afterEach(() => t.cleanup());

    it('applies every migration in name order, then has nothing left to apply', async () => {
      t = await openTestStore(dialect, { migrate: false });
      const first = await t.store.migrate();
      expect(first.error).toBeUndefined();
      expect(first.results[0]).toEqual({ name: '0001-core', status: 'Success' });
      const names = first.results.map((r) => r.name);
      expect(names).toEqual([...names].sort());
      expect(first.results.every((r) => r.status === 'Success')).toBe(true);
      for (const table of CORE_TABLES) {
        const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(t.store.db);
        expect(Number(rows[0].n)).toBe(0);
      }
      const again = await t.store.migrate();
      expect(again).toEqual({ results: [] });
      const other = await t.openAnother();
      expect(await other.migrate()).toEqual({ results: [] });
    });

    it('lets several processes open a new database at once, applying each migration once', async () => {
      t = await openTestStore(dialect, { migrate: false });
      // Three at once: two child processes and this one.
      const [a, b, here] = await Promise.all([runStoreChild(t), runStoreChild(t), t.store.migrate()]);
      expect([a, b, here.error]).toEqual([{ opened: true }, { opened: true }, undefined]);
      const applied = await t.store.db.selectFrom('kysely_migration').select('name').orderBy('name').execute();
      expect(applied[0].name).toBe('0001-core');
      expect(new Set(applied.map((r) => r.name)).size).toBe(applied.length);
      expect(await t.store.migrate()).toEqual({ results: [] });
    });

    it('opens an up-to-date database without loading a migration, and still applies a new one', async () => {
      t = await openTestStore(dialect, { migrate: false });
      const target = { dialect, columnTypes: t.store.adapter.columnTypes, schema: t.schema };
      const dirs: string[] = [];
      /** A folder of its own each time: an imported module is cached by its URL. */
      const folder = (files: Record<string, string>) => {
        const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-migrations-'));
        dirs.push(dir);
        for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
        return `${dir}/`;
      };
      const fine = "export async function up(db, t) { await db.schema.createTable('fine').addColumn('id', t.integer).execute(); }";
      try {
        expect((await runMigrations(t.store.db, target, { ...MIRROR_SCHEMA, folder: folder({ '0001-fine.mjs': fine }) })).results).toEqual([
          { name: '0001-fine', status: 'Success' },
        ]);
        // Recorded already: the file is not even imported (a start pays for no migration module).
        expect(
          await runMigrations(t.store.db, target, {
            ...MIRROR_SCHEMA,
            folder: folder({ '0001-fine.mjs': "throw new Error('imported');" }),
          }),
        ).toEqual({
          results: [],
        });
        const more = "export async function up(db, t) { await db.schema.createTable('more').addColumn('id', t.integer).execute(); }";
        expect(
          (await runMigrations(t.store.db, target, { ...MIRROR_SCHEMA, folder: folder({ '0001-fine.mjs': fine, '0002-more.mjs': more }) }))
            .results,
        ).toEqual([{ name: '0002-more', status: 'Success' }]);
      } finally {
        for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
      }
    });

    it('reports a failing migration in its results instead of throwing', async () => {
      t = await openTestStore(dialect, { migrate: false });
      const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-migrations-'));
      try {
        writeFileSync(
          join(dir, '0001-fine.mjs'),
          "export async function up(db, t) { await db.schema.createTable('fine').addColumn('id', t.integer).execute(); }",
        );
        writeFileSync(join(dir, '0002-broken.mjs'), "export async function up() { throw new Error('boom'); }");
        const types = {
          text: 'text',
          integer: 'integer',
          bigint: 'bigint',
          double: 'real',
          boolean: 'integer',
          json: 'text',
          timestamp: 'text',
          serial: 'integer',
        } as const;
        const outcome = await runMigrations(
          t.store.db,
          { dialect, columnTypes: types, schema: t.schema },
          { ...MIRROR_SCHEMA, folder: `${dir}/` },
        );
        expect(outcome.results).toEqual([
          { name: '0001-fine', status: 'Success' },
          { name: '0002-broken', status: 'Error' },
        ]);
        expect(String(outcome.error)).toContain('boom');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

describe('openStore', () => {
  it('creates the folder of a new SQLite file and applies the migrations', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-open-'));
    const path = join(dir, 'nested', 'deeper', 'mirror.db');
    try {
      const store = await openStore({ migrations: MIRROR_SCHEMA, url: `sqlite:${path}` });
      expect(store.dialect).toBe('sqlite');
      expect(existsSync(path)).toBe(true);
      const { rows } = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(store.db);
      expect(rows[0].journal_mode).toBe('wal');
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives a new SQLite file 16 KiB pages and keeps the page size of an existing one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-open-'));
    const pageSize = async (path: string) => {
      const store = await openStore({ migrations: MIRROR_SCHEMA, url: `sqlite:${path}` });
      const { rows } = await sql<{ page_size: number }>`pragma page_size`.execute(store.db);
      await store.close();
      return rows[0].page_size;
    };
    try {
      expect(await pageSize(join(dir, 'new.db'))).toBe(16384);
      const old = new Database(join(dir, 'old.db'));
      old.exec('create table made_before (x)');
      old.close();
      expect(await pageSize(join(dir, 'old.db'))).toBe(4096);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps PostgreSQL tables in the chosen schema and logs the URL without its password', async () => {
    const lines: string[] = [];
    // Migrations are logged at debug (quiet by default).
    const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
    const withPassword = inject('pgUrl').replace('://postgres@', '://postgres:not-a-real-pw@'); // trust auth ignores it
    const schema = `t_schema_${process.pid}_${Date.now()}`;
    const store = await openStore({ migrations: MIRROR_SCHEMA, url: withPassword, schema, logger });
    try {
      const { rows } = await sql<{ table_name: string }>`
        select table_name from information_schema.tables where table_schema = ${schema} order by table_name`.execute(store.db);
      const names = rows.map((r) => r.table_name);
      expect(names).toEqual(expect.arrayContaining([...CORE_TABLES, 'kysely_migration']));
      expect(lines.some((l) => l.includes('0001-core') && l.includes('postgres:***@'))).toBe(true);
      expect(lines.join('')).not.toContain('not-a-real-pw');
    } finally {
      await store.close(); // the schema goes with the others at the end of the run (pg-global-setup)
    }
  });

  it('compresses PostgreSQL JSON and text columns with lz4 when the server has it', async () => {
    const t = await openTestStore('postgres');
    try {
      const [{ lz4 }] = (
        await sql<{ lz4: boolean }>`
        select 'lz4' = any(enumvals) as lz4 from pg_settings where name = 'default_toast_compression'`.execute(t.store.db)
      ).rows;
      const { rows } = await sql<{ column: string; method: string }>`
        select attname as column, attcompression as method from pg_attribute
        where attrelid = 'assets'::regclass and attname in ('raw', 'description', 'id') order by attname`.execute(t.store.db);
      expect(rows).toEqual([
        { column: 'description', method: lz4 ? 'l' : '' },
        { column: 'id', method: '' }, // not compressible
        { column: 'raw', method: lz4 ? 'l' : '' },
      ]);
      const big = { id: 1, text: 'x'.repeat(3000) }; // past the 2 KB TOAST threshold: stored compressed
      await t.store.transaction((tx) =>
        tx.upsertChanged('assets', ['id'], [{ id: 1, asset_class: 'token', raw: big, row_hash: 'h' }], '2025-01-01T00:00:00.000Z'),
      );
      const [stored] = (await sql<{ method: string }>`select pg_column_compression(raw) as method from assets`.execute(t.store.db)).rows;
      expect(stored.method).toBe(lz4 ? 'lz4' : 'pglz');
    } finally {
      await t.cleanup();
    }
  });

  it('never shows the password when PostgreSQL cannot be reached', async () => {
    const error = await openStore({ migrations: MIRROR_SCHEMA, url: 'postgres://mirror:s3cr3t-pw@127.0.0.1:1/db' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DsMirrorError);
    expect((error as DsMirrorError).code).toBe('DS_DB_OPEN');
    expect(errorAction(error)).toBe('retry');
    expect((error as Error).message).toContain('postgres://mirror:***@127.0.0.1:1/db');
    expect((error as Error).message).not.toContain('s3cr3t-pw');
    expect(JSON.stringify(error)).not.toContain('s3cr3t-pw');
  });

  it('parses the --db forms and rejects what it cannot open with a hint', () => {
    expect(parseStoreUrl('data/mirror.db')).toEqual({ dialect: 'sqlite', path: 'data/mirror.db' });
    expect(parseStoreUrl('sqlite:data/m.db')).toEqual({ dialect: 'sqlite', path: 'data/m.db' });
    expect(parseStoreUrl('sqlite:///tmp/m.db')).toEqual({ dialect: 'sqlite', path: '/tmp/m.db' });
    expect(parseStoreUrl(':memory:')).toEqual({ dialect: 'sqlite', path: ':memory:' });
    expect(parseStoreUrl('postgresql://h/db', 'mirror')).toEqual({ dialect: 'postgres', url: 'postgresql://h/db', schema: 'mirror' });
    expect(() => parseStoreUrl('mysql://h/db')).toThrow(/unsupported scheme/);
    expect(() => parseStoreUrl('postgres://h/db', 'Bad-Name')).toThrow(/--db-schema/);
    expect(() => parseStoreUrl('data/m.db', 'mirror')).toThrow(/PostgreSQL only/);
    expect(redactUrl('postgres://u:p%40ss@h:5432/db?sslmode=require&password=x')).toBe(
      'postgres://u:***@h:5432/db?sslmode=require&password=***',
    );
  });
});
