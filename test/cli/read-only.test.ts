// @end-to-end
// The commands that only read never make a mirror, and read one they cannot write: on a missing mirror
// they say where they looked (exit 2) and leave no file; a mirror opened to read cannot be written, on
// either store; a mirror in a folder its user cannot write is read (a non-root user, where one exists).
import { execFile } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { dialects, openTestStore } from '../helpers/stores.js';
import { MIRROR_SCHEMA } from '../../src/mirror-schema/index.js';
import { LAUNCHER_FLAGS } from '../helpers/launcher.js';

const run = promisify(execFile);
const BIN = resolve('bin/ds-mirror.js');
let dir: string;

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(args: string[], cwd: string, user?: string): Promise<Outcome> {
  const command = user
    ? ['runuser', ['-u', user, '--', process.execPath, ...LAUNCHER_FLAGS, BIN, ...args]]
    : [process.execPath, [...LAUNCHER_FLAGS, BIN, ...args]];
  // One configured view: `views` with none configured needs no mirror (it says what to set).
  const env = {
    ...process.env,
    DS_DB: '',
    DS_CONFIG: '',
    DS_LOG_LEVEL: 'warn',
    DS_BASE_URL: '',
    DS_API_KEY: '',
    DS_MONITORING_VIEWS: 'a-view',
  };
  try {
    const { stdout, stderr } = await run(command[0] as string, command[1] as string[], { cwd, env, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** The environment of main() run in this process (test/helpers/cli-in-process.ts): as the spawned CLI's. */
const inProcessEnv = { DS_LOG_LEVEL: 'warn', DS_MONITORING_VIEWS: 'a-view' };

let asked: Promise<string | null> | undefined;
/** A user other than root that `runuser` can switch to and run ds-mirror as, or null (then permissions cannot be tested). */
function otherUser(): Promise<string | null> {
  asked ??= findOtherUser(); // asked once per file: each asking spawns the CLI
  return asked;
}

async function findOtherUser(): Promise<string | null> {
  if (process.getuid?.() !== 0) return null;
  try {
    // The checkout must be readable by that user too (not so under a 0700 home folder).
    await run('runuser', ['-u', 'nobody', '--', process.execPath, ...LAUNCHER_FLAGS, BIN, '--version']);
    return 'nobody';
  } catch {
    return null;
  }
}

/**
 * A migrated mirror at `folder`/data/mirror.db: a copy of the run's template, which is what `ds-mirror
 * migrate` makes there (a spawn that would prove nothing these tests read: migrate is test/cli/compiled.test.ts's).
 */
function migratedMirror(folder: string): void {
  mkdirSync(join(folder, 'data'));
  copyFileSync(inject('sqliteTemplate'), join(folder, 'data', 'mirror.db'));
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ds-mirror-read-only-'));
  chmodSync(dir, 0o755);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('read-only commands on a missing mirror', () => {
  it('say where they looked, exit 2 and create nothing; schema, jobs, budget (a schedule) and streams need no mirror', async () => {
    const empty = mkdtempSync(join(dir, 'empty-'));
    // Through a process in the folder: the default --db, resolved there.
    const status = await cli(['status'], empty);
    expect(status.code).toBe(2);
    expect(status.stderr).toBe(
      `ds-mirror: no mirror at ${join(empty, 'data/mirror.db')} (the default --db, relative to this folder): run ds-mirror sync to make one, or point --db (or DS_DB) at the mirror\n`,
    );
    // The other readers refuse before they open anything (one check, context.ts's requireMirror): main()
    // in this process, on a --db in the empty folder; a relative --db resolves from this process's folder.
    const db = `sqlite:${join(empty, 'data/mirror.db')}`;
    const reading = [['budget', '--release', 'v1'], ['export', 'v_assets', '--out', join(empty, 'x.csv')], ['views']];
    for (const args of reading) {
      const out = await cliInProcess(['--db', db, ...args], inProcessEnv);
      expect(out.code, args.join(' ')).toBe(2);
      expect(out.stderr).toBe(
        `ds-mirror: no mirror at ${join(empty, 'data/mirror.db')} (--db ${db}): run ds-mirror sync to make one, or point --db (or DS_DB) at the mirror\n`,
      );
    }
    const named = await cliInProcess(['--db', 'sqlite:elsewhere/m.db', 'status'], inProcessEnv);
    expect(named.stderr).toContain(`no mirror at ${resolve('elsewhere/m.db')} (--db sqlite:elsewhere/m.db)`);
    expect(existsSync('elsewhere')).toBe(false);
    // jobs and budget project on an empty mirror in memory: spawned; schema and streams open nothing.
    for (const args of [['jobs'], ['budget'], ['schema', 'chains'], ['streams']]) {
      const out =
        args[0] === 'jobs' || args[0] === 'budget' ? await cli(args, empty) : await cliInProcess(['--db', db, ...args], inProcessEnv);
      expect(out.code, args.join(' ')).toBe(0);
      expect(out.stdout.length).toBeGreaterThan(100);
    }
    expect(readdirSync(empty)).toEqual([]);
  });

  it('refuse a database that is not a mirror, without making it one', async () => {
    const other = mkdtempSync(join(dir, 'other-'));
    const Database = (await import('better-sqlite3')).default;
    new Database(join(other, 'notes.db')).exec('create table notes (x)');
    const out = await cli(['--db', 'sqlite:notes.db', 'status'], other);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/notes\.db is not a ds-mirror mirror \(it has no migration ledger\)/);
    const tables = new Database(join(other, 'notes.db')).prepare("select name from sqlite_master where type = 'table'").all();
    expect(tables).toEqual([{ name: 'notes' }]);
  });
});

for (const dialect of dialects) {
  describe(`a mirror opened to read (${dialect})`, () => {
    it('reads, and cannot be written', async () => {
      const t = await openTestStore(dialect);
      try {
        await t.store.db
          .insertInto('mirrored_service')
          .values({ base_url: 'http://a.example', claimed_at: '2026-01-01T00:00:00Z' })
          .execute();
        const reader = await openStore({ migrations: MIRROR_SCHEMA, url: t.url, schema: t.schema, readOnly: true });
        try {
          expect(await reader.db.selectFrom('mirrored_service').select('base_url').execute()).toEqual([{ base_url: 'http://a.example' }]);
          await expect(reader.db.deleteFrom('mirrored_service').execute()).rejects.toThrow(/readonly|read-only/);
        } finally {
          await reader.close();
        }
      } finally {
        await t.cleanup();
      }
    });
  });
}

describe('a mirror in a folder its user cannot write', () => {
  it('is read by status and export', async (ctx) => {
    const user = await otherUser();
    // Root writes anywhere: without another user to run as, the folder's permissions cannot bite.
    if (user === null) return ctx.skip();
    const folder = mkdtempSync(join(dir, 'locked-'));
    migratedMirror(folder);
    chmodSync(folder, 0o755);
    chmodSync(join(folder, 'data'), 0o555);
    const out = mkdtempSync(join(dir, 'out-'));
    chmodSync(out, 0o777);
    const before = readdirSync(join(folder, 'data'));
    const status = await cli(['--db', 'sqlite:data/mirror.db', 'status'], folder, user);
    expect(status.stderr).toBe('');
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^stream\s+rows/);
    const exported = await cli(['--db', 'sqlite:data/mirror.db', 'export', 'v_assets', '--out', join(out, 'assets.csv')], folder, user);
    expect(exported.stderr).toBe('');
    expect(exported.code).toBe(0);
    expect(existsSync(join(out, 'assets.csv'))).toBe(true);
    expect(readdirSync(join(folder, 'data'))).toEqual(before);
  });
});

describe('export to a path it cannot write', () => {
  it('says so in one plain line, and leaves no file', async () => {
    const folder = mkdtempSync(join(dir, 'export-'));
    chmodSync(folder, 0o755);
    migratedMirror(folder);
    const missing = await cli(['export', 'v_assets', '--out', 'no/such/folder/a.csv'], folder);
    expect([missing.code, missing.stderr]).toEqual([
      2,
      `ds-mirror: --out no/such/folder/a.csv: the folder ${join(folder, 'no/such/folder')} does not exist; create it first, or correct the path\n`,
    ]);
    mkdirSync(join(folder, 'taken.csv'));
    const isFolder = await cli(['export', 'v_assets', '--out', 'taken.csv'], folder);
    expect([isFolder.code, isFolder.stderr]).toEqual([2, 'ds-mirror: cannot write taken.csv: that is a folder: name a file in it\n']);
    const user = await otherUser();
    if (user !== null) {
      const locked = join(folder, 'locked');
      mkdirSync(locked, { mode: 0o555 });
      const denied = await cli(['export', 'v_assets', '--out', 'locked/a.csv'], folder, user);
      expect([denied.code, denied.stderr]).toEqual([
        2,
        'ds-mirror: cannot write locked/a.csv: permission denied: choose a folder you can write, or change its permissions\n',
      ]);
    }
    expect(readdirSync(folder).sort()).toEqual(['data', 'locked', 'taken.csv'].filter((f) => user !== null || f !== 'locked'));
  });
});
