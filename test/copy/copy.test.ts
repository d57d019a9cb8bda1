// @end-to-end
// `copy` moves a real mirror (the sandbox synced over HTTP) between stores: SQLite → PostgreSQL,
// PostgreSQL → SQLite and SQLite → SQLite. The copy equals its source table for table, keeps the ids
// of run records and quarantine (new rows do not collide), is a working mirror (an incremental sync
// writes nothing), refuses a non-empty target unless forced, and names the first difference.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { v1Lists } from '../../src/catalog/v1.js';
import { copyStore, CopyTargetNotEmptyError, liveLeases, verifyStores, type CopyProgress } from '../../src/copy/copy-store.js';
import type { Store } from '../../src/store/index.js';
import { ALL_DETAILS, NO_DETAILS, settings, syncOnce, tableSnapshot, totals } from '../helpers/mirror.js';
import { openTestStore, type TestStore } from '../helpers/stores.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { LAUNCHER_FLAGS } from '../helpers/launcher.js';

const run = promisify(execFile);
const STREAMS = ['v1', 'token-unlocks', 'monitoring-categories', 'monitoring-events'];
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)$/;

let sandbox: Sandbox;
let sqlite: TestStore; // the mirror a user starts with
let direct: TestStore; // the same sandbox synced straight into PostgreSQL
// The SQLite mirror has the details of 10 developments (copied like the rest; each is a request, and all
// 1,100 once were most of this file's cost), the direct one none: its comparison with the copy is of the
// /v1 lists. Syncs after a copy fetch no details: the copy is a working mirror when they write nothing.
const SOME_DETAILS = { settings: { monitoring: { ...settings().monitoring, details: { ...ALL_DETAILS, maxPerRun: 10 } } } };
const LISTS_ONLY = { settings: { monitoring: { ...settings().monitoring, details: NO_DETAILS } } };
const opened: TestStore[] = [];

async function fresh(dialect: 'sqlite' | 'postgres'): Promise<TestStore> {
  const t = await openTestStore(dialect);
  opened.push(t);
  return t;
}

/** Mirror tables, read with plain SQL (not copy's own introspection). */
async function tableNames(store: Store): Promise<string[]> {
  const rows =
    store.dialect === 'sqlite'
      ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(store.db)).rows
      : (await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = current_schema()`.execute(store.db)).rows;
  return rows
    .map((r) => r.name)
    .filter((n) => !n.startsWith('kysely_') && !n.startsWith('sqlite_') && !['leases', 'schema_objects', 'pace_slots'].includes(n))
    .sort();
}

/** A table's rows with JSON text parsed and times as ISO UTC: equal across dialects when the data is. */
async function neutral(store: Store, table: string): Promise<unknown[]> {
  const parse = (v: unknown): unknown => {
    if (typeof v !== 'string') return v;
    if (/^[[{]/.test(v)) {
      try {
        return JSON.parse(v);
      } catch {
        return v;
      }
    }
    return ISO_TIME.test(v) ? new Date(v).toISOString() : v;
  };
  const sortedKeys = (_k: string, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v;
  const rows = (await store.db.selectFrom(table).selectAll().execute()).map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'boolean' ? Number(v) : parse(v)])),
  );
  return rows
    .map((r) => [JSON.stringify(r, sortedKeys), r] as const)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([, r]) => r);
}

async function expectSameTables(copy: Store, source: Store): Promise<void> {
  const names = await tableNames(source);
  expect(await tableNames(copy)).toEqual(names);
  for (const table of names) expect(await neutral(copy, table), table).toEqual(await neutral(source, table));
}

async function ids(store: Store, table: string): Promise<number[]> {
  return (await store.db.selectFrom(table).select('id').orderBy('id').execute()).map((r) => Number(r.id));
}

beforeAll(async () => {
  sandbox = await startSandbox({ start: PINNED_START, scale: 0.05, seed: 21 });
  sqlite = await fresh('sqlite');
  direct = await fresh('postgres');
  for (const t of [sqlite, direct]) {
    expect((await syncOnce(t.store, sandbox, STREAMS, t === direct ? LISTS_ONLY : SOME_DETAILS)).outcome).toBe('success');
    // Quarantined records and a run that failed, with every value type the tables hold.
    await t.store.transaction(async (tx) => {
      for (const n of [1, 2, 3])
        await tx.quarantine('assets', `bad record ${n}`, { id: n, nested: { ok: n % 2 === 0 } }, `2026-01-0${n}T10:00:00Z`);
    });
    const runId = await t.store.startRun(['charts'], 'full', '2026-01-04T00:00:00.000Z');
    await t.store.finishRun(runId, 'failed', '2026-01-04T00:00:01.000Z');
  }
});

afterAll(async () => {
  for (const t of opened) await t.cleanup();
  await sandbox?.close();
});

describe('copy', () => {
  // The first case's PostgreSQL copy (then synced, which wrote no row of the /v1 lists) is the target the
  // difference case changes and the command's --force then replaces.
  let different: TestStore;

  it('SQLite → PostgreSQL: every table equal, ids kept, and a working mirror', async () => {
    const pg = await fresh('postgres');
    different = pg;
    const progress: CopyProgress[] = [];
    const result = await copyStore(sqlite.store, pg.store, { batchRows: 40, onProgress: (p) => progress.push(p) });
    expect(result.mismatch).toBeNull();
    for (const t of result.tables) {
      const copied = progress.filter((p) => p.table === t.table && p.phase === 'copy').map((p) => p.done);
      expect(copied[copied.length - 1], t.table).toBe(t.rows);
      expect(copied, t.table).toEqual([...copied].sort((a, b) => a - b));
    }
    expect(progress.filter((p) => p.table === 'assets' && p.phase === 'copy').length).toBeGreaterThan(2);
    expect(result.tables.map((t) => t.table).sort()).toEqual(await tableNames(sqlite.store));
    expect(result.tables.every((t) => t.verified)).toBe(true);
    expect(result.rows).toBeGreaterThan(1000);
    // The planner knows what arrived: every copied table analyzed, so a small one (catalog_streams, 26 rows)
    // is not estimated empty until autovacuum's threshold of 50 changes (a view's plan then loops per row).
    const { rows: stale } = await sql<{ relname: string }>`select c.relname from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind = 'r' and c.relname = any(${result.tables.map((t) => t.table)})
        and c.reltuples < 0`.execute(pg.store.db);
    expect(stale.map((r) => r.relname)).toEqual([]);
    await expectSameTables(pg.store, sqlite.store);
    // Byte for byte what a direct PostgreSQL sync of the same data holds (jsonb formats both alike).
    for (const table of v1Lists.map((s) => s.table)) {
      expect(await tableSnapshot(pg.store, table), table).toEqual(await tableSnapshot(direct.store, table));
    }
    expect(await ids(pg.store, 'sync_runs')).toEqual(await ids(sqlite.store, 'sync_runs'));
    expect(await ids(pg.store, 'quarantine')).toEqual(await ids(sqlite.store, 'quarantine'));

    // Sequences moved past the copied ids: new rows get new ids instead of colliding.
    const quarantined = await ids(pg.store, 'quarantine');
    await pg.store.transaction((tx) => tx.quarantine('assets', 'after the copy', { id: 9 }, new Date().toISOString()));
    expect(await ids(pg.store, 'quarantine')).toEqual([...quarantined, Math.max(...quarantined) + 1]);
    const incremental = await syncOnce(pg.store, sandbox, STREAMS, LISTS_ONLY);
    expect(incremental.outcome).toBe('success');
    expect(incremental.runId).toBe(Math.max(...(await ids(sqlite.store, 'sync_runs'))) + 1);
    const sum = totals(incremental);
    expect({ inserted: sum.inserted, updated: sum.updated, deleted: sum.deleted }).toEqual({ inserted: 0, updated: 0, deleted: 0 });
    expect(sum.unchanged).toBeGreaterThan(250);
  });

  it('PostgreSQL → SQLite: every table equal and a working mirror', async () => {
    const back = await fresh('sqlite');
    const result = await copyStore(direct.store, back.store);
    expect(result.mismatch).toBeNull();
    await expectSameTables(back.store, direct.store);
    expect(await ids(back.store, 'quarantine')).toEqual(await ids(direct.store, 'quarantine'));
    const sum = totals(await syncOnce(back.store, sandbox, STREAMS, LISTS_ONLY));
    expect({ inserted: sum.inserted, updated: sum.updated, deleted: sum.deleted }).toEqual({ inserted: 0, updated: 0, deleted: 0 });
  });

  // --force replacing a target (left different) is the command's case below, read back with expectSameTables.
  it('SQLite → SQLite is exact; a non-empty target is refused', async () => {
    const copy = await fresh('sqlite');
    expect((await copyStore(sqlite.store, copy.store)).mismatch).toBeNull();
    for (const table of await tableNames(sqlite.store)) {
      expect(await tableSnapshot(copy.store, table), table).toEqual(await tableSnapshot(sqlite.store, table));
    }
    const refused = await copyStore(sqlite.store, copy.store).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CopyTargetNotEmptyError);
    expect((refused as Error).message).toMatch(/already holds mirrored rows \(.*assets.*\).*--force/);
  });

  // One target serves both ways of reading: each difference is asked of both.
  it('names the first row that differs, is missing or is extra (both read in key order, or rows matched by key)', async () => {
    const pg = different;
    const verify = (byKey: boolean) => verifyStores(sqlite.store, pg.store, { byKey });
    const [, second, third] = await ids(pg.store, 'assets');
    // A changed asset, an extra sector and the run streams gone at once: each table names its own first difference.
    await pg.store.db.updateTable('assets').set({ title: 'changed', is_preview: true }).where('id', '=', second).execute();
    const now = new Date().toISOString();
    await pg.store.db
      .insertInto('sectors')
      .values({ slug: 'zz-extra', raw: '{}', row_hash: 'x', first_seen_at: now, synced_at: now })
      .execute();
    await pg.store.db.deleteFrom('sync_run_streams').execute();
    for (const byKey of [false, true]) {
      // The crosswalk the target's triggers keep from assets differs too once an asset's title does, so the
      // run's first mismatch may be any of them.
      const changed = await verify(byKey);
      expect(changed.mismatch).not.toBeNull();
      const table = (name: string) => changed.tables.find((t) => t.table === name);
      expect(table('assets')?.mismatch, `byKey ${byKey}`).toBe(`assets: row id=${second} differs in is_preview, title`);
      expect(table('assets')?.verified).toBe(false);
      expect(table('projects')?.verified).toBe(true);
      expect(table('sectors')?.mismatch, `byKey ${byKey}`).toBe('sectors: row slug=zz-extra is in the target only');
      expect(table('sync_run_streams')?.mismatch).toMatch(/^sync_run_streams: row run_id=1, stream=\S+ is missing from the target$/);
    }

    await pg.store.db.deleteFrom('assets').where('id', '=', second).execute();
    const assetsMismatch = async (byKey: boolean) => (await verify(byKey)).tables.find((t) => t.table === 'assets')?.mismatch;
    expect(await assetsMismatch(false)).toBe(`assets: the source has row id=${second} where the target has id=${third}`);
    expect(await assetsMismatch(true)).toBe(`assets: row id=${second} is missing from the target`);
  });

  it('names the leases live on the source (a worker that could write during the copy)', async () => {
    const live = (await sqlite.store.acquireLease('sync:assets', 'worker-x', 60_000))!;
    const expired = (await sqlite.store.acquireLease('sync:charts', 'worker-y', 1))!;
    await new Promise((resolve) => setTimeout(resolve, 20));
    try {
      expect(await liveLeases(sqlite.store)).toEqual([expect.stringMatching(/^sync:assets \(held by worker-x until \d{4}-/)]);
    } finally {
      await Promise.all([live.release(), expired.release()]);
    }
    expect(await liveLeases(sqlite.store)).toEqual([]);
  });

  it('as a command: --force replaces a target, a table of tables, rows and verified; exit 2 on a non-empty target, 1 on a difference', async () => {
    const pg = different; // left different (an asset missing, a sector extra, no run streams) by the case above
    const cli = async (...args: string[]) =>
      run(
        process.execPath,
        [...LAUNCHER_FLAGS, 'bin/ds-mirror.js', 'copy', '--from', sqlite.url, '--to', pg.url, '--to-schema', pg.schema!, ...args],
        {
          env: { ...process.env, DS_LOG_LEVEL: 'warn' },
          timeout: 240_000,
        },
      ).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
      );
    const ok = await cli('--force');
    expect(ok.code).toBe(0);
    const assets = await sqlite.store.db
      .selectFrom('assets')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(ok.stdout).toMatch(/^table\s+rows\s+verified$/m);
    expect(ok.stdout).toMatch(new RegExp(`^assets\\s+${Number(assets.n)}\\s+yes$`, 'm'));
    expect(ok.stdout).toMatch(/copied \d+ rows in \d+ tables .* verified row for row/);
    await expectSameTables(pg.store, sqlite.store);

    const again = await cli();
    expect(again.code).toBe(2);
    expect(again.stderr.trim().split('\n')).toHaveLength(1);
    expect(again.stderr).toMatch(/already holds mirrored rows.*--force/);

    const [asset] = await ids(pg.store, 'assets');
    await pg.store.db
      .updateTable('assets')
      .set({ raw: JSON.stringify({ id: asset, changed: true }) })
      .where('id', '=', asset)
      .execute();
    const differs = await cli('--verify-only');
    expect(differs.code).toBe(1);
    expect(differs.stdout).toMatch(/^assets\s+\d+\s+NO$/m);
    expect(differs.stderr).toMatch(new RegExp(`differs from its source: assets: row id=${asset} differs in raw\\n$`));
  });
});
