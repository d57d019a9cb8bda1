// @end-to-end
// A first load into an empty `assets` leaves its secondary indexes out and builds them at its end
// (src/store/sqlite/sqlite-first-load.ts); a CLI killed mid-load never gets there, so the next writable
// open makes them again (the repeatable `deferred-indexes`), and so does the next pass of a process that
// kept the store open. Each time the index is the migrations' own (same text, `integrity_check` finds its
// entries equal to the rows) and the rows are those of an uninterrupted sync. PostgreSQL leaves none out
// (the same names, its own definitions): the same runs end with the same rows and indexes.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import type { Store } from '../../src/store/index.js';
import { DEFERRED_INDEXES } from '../../src/store/sqlite/sqlite-first-load.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { syncOnce, tableSnapshot } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

/** The deferred indexes the store holds now, by name → definition (PostgreSQL's by the same names). */
async function indexDefs(store: Store): Promise<Record<string, string>> {
  const names = sql.join(DEFERRED_INDEXES.map((i) => i.name));
  const query =
    store.dialect === 'sqlite'
      ? sql<{ name: string; def: string }>`select name, sql as def from sqlite_master where type = 'index' and name in (${names})`
      : sql<{
          name: string;
          def: string;
        }>`select indexname as name, indexdef as def from pg_indexes where schemaname = current_schema() and indexname in (${names})`;
  const { rows } = await query.execute(store.db);
  return Object.fromEntries(rows.map((r) => [r.name, r.def]).sort());
}

const ALL = Object.fromEntries(DEFERRED_INDEXES.map((i) => [i.name, i.sql]).sort());

async function integrity(store: Store): Promise<string> {
  const { rows } = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(store.db);
  return rows.map((r) => r.integrity_check).join('; ');
}

/** Runs `sync assets` in the built CLI until it has committed pages of the token class, then kills it (SIGKILL). */
async function killMidLoad(test: TestStore, sandbox: Sandbox, whileHeld: () => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-first-load-'));
  const config = join(dir, 'config.json');
  const fast = { requestsPerMinute: 1_000_000, concurrency: 4 };
  writeFileSync(config, JSON.stringify({ limits: { v1: fast, open: fast, charts: fast }, pageWindow: 1 }));
  // Pages 7 and later of assets get no answer: the CLI commits the first pages, then waits mid-list.
  sandbox.setChaos({ hold: { path: '/v1/assets', fromPage: 7 } });
  try {
    const child = spawn(process.execPath, ['bin/ds-mirror.js', 'sync', 'assets', '--no-progress'], {
      env: {
        ...process.env,
        DS_BASE_URL: sandbox.url,
        DS_API_KEY: sandbox.apiKey,
        DS_DB: test.url,
        ...(test.schema ? { DS_DB_SCHEMA: test.schema } : {}),
        DS_CONFIG: config,
        DS_LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    let exit: number | null | undefined;
    const exited = new Promise((resolve) => child.once('exit', resolve)).then((code) => {
      exit = code as number | null;
    });
    const deadline = Date.now() + 240_000;
    for (;;) {
      const held = await test.store.db
        .selectFrom('assets')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst()
        .catch(() => undefined);
      if (Number(held?.n ?? 0) >= 300) break;
      if (exit !== undefined) throw new Error(`the CLI exited (${exit}) before it committed pages of assets: ${stderr}`);
      if (Date.now() > deadline) throw new Error('the CLI committed no pages of assets in 240 s');
      await new Promise((r) => setTimeout(r, 20));
    }
    await whileHeld();
    child.kill('SIGKILL');
    await exited;
  } finally {
    sandbox.setChaos(null);
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const dialect of dialects) {
  describe(`a first load's indexes (${dialect})`, () => {
    let sandbox: Sandbox;
    let clean: TestStore;
    let fresh: Record<string, string>;
    let cleanOutcome: string;

    beforeAll(async () => {
      sandbox = await startSandbox({ start: PINNED_START, scale: 0.5, seed: 11 });
      clean = await openTestStore(dialect);
      fresh = await indexDefs(clean.store);
      cleanOutcome = (await syncOnce(clean.store, sandbox, ['assets'])).outcome;
    });
    afterAll(async () => {
      await clean?.cleanup();
      await sandbox?.close();
    });

    it("are the migrations' own, and built at the end of an uninterrupted first load", async () => {
      expect(cleanOutcome).toBe('success');
      expect(Object.keys(fresh)).toEqual(Object.keys(ALL));
      // On SQLite, the very text that restores them.
      expect(fresh).toEqual(dialect === 'sqlite' ? ALL : await indexDefs(clean.store));
      expect(await indexDefs(clean.store)).toEqual(fresh);
      if (dialect === 'sqlite') expect(await integrity(clean.store)).toBe('ok');
      else expect(Object.keys(await indexDefs(clean.store))).toHaveLength(DEFERRED_INDEXES.length);
    });

    it('left out by a CLI killed mid-load come back at the next open, and at the next pass of a store kept open', async () => {
      const test = await openTestStore(dialect);
      // Mid-load (pages committed, the list not read to its end), and once killed: left out on SQLite only.
      const leftOut = dialect === 'sqlite' ? {} : fresh;
      try {
        await killMidLoad(test, sandbox, async () => expect(await indexDefs(test.store)).toEqual(leftOut));
        expect(await indexDefs(test.store)).toEqual(leftOut);
        const reopened = await test.openAnother();
        expect(await indexDefs(reopened)).toEqual(fresh);
        if (dialect === 'sqlite') expect(await integrity(reopened)).toBe('ok');
        else expect(await indexDefs(test.store)).toEqual(fresh);
        // A load killed while this process kept the store open: its next pass over the table builds them.
        for (const i of dialect === 'sqlite' ? DEFERRED_INDEXES : []) await sql.raw(`drop index ${i.name}`).execute(test.store.db);
        expect(await indexDefs(test.store)).toEqual(leftOut);
        expect((await syncOnce(test.store, sandbox, ['assets'])).outcome).toBe('success');
        expect(await indexDefs(test.store)).toEqual(fresh);
        if (dialect === 'sqlite') expect(await integrity(test.store)).toBe('ok');
        else expect(await indexDefs(reopened)).toEqual(fresh);
        expect(await tableSnapshot(test.store, 'assets')).toEqual(await tableSnapshot(clean.store, 'assets'));
      } finally {
        await test.cleanup();
      }
    });
  });
}
