// @end-to-end
// A newcomer's mistakes leave nothing, through `ds-mirror` spawned as a user runs it where its output is read
// (the other runs through the library, or main() in this process, on the same files): a wrong key claims no
// mirror (the keyless market stats answer any key), a run that reaches nothing (test/mirror/reach-service.test.ts),
// `sync --plan` and the read-only commands make no file and leave no -wal/-shm, an unknown --db scheme is refused
// in one line, a sync that finds every stream leased by another worker says so in one line and exits 3, and a run
// on a disk that fills at any of its writes says "success" only when its last write committed.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import type { SyncRun } from '../../src/index.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { libraryRun } from '../helpers/library-run.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { LAUNCHER_FLAGS } from '../helpers/launcher.js';

const execFileP = promisify(execFile);
const BIN = resolve('bin/ds-mirror.js');
let sandbox: Sandbox;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ start: PINNED_START, scale: 0.1 });
  dir = mkdtempSync(join(tmpdir(), 'ds-newcomer-'));
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Outcome> {
  const base = { DS_DB: '', DS_CONFIG: '', DS_LOG_LEVEL: 'warn', DS_BASE_URL: sandbox.url, DS_API_KEY: sandbox.apiKey };
  try {
    const { stdout, stderr } = await execFileP(process.execPath, [...LAUNCHER_FLAGS, BIN, ...args], {
      cwd,
      env: { ...process.env, ...base, ...env },
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

function dbArgs(t: TestStore): string[] {
  return ['--db', t.url, ...(t.schema ? ['--db-schema', t.schema] : [])];
}

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

// One mirror per store for both cases, in order: the keyless runs leave it unclaimed, and the run the
// leases let through (a keyed list) is the keyed answer that claims it. What a claim is and what a lease
// lets through is the store's (both dialects); what the CLI prints of it and its exit codes are the same
// on either, so the runs whose output is read are spawned on SQLite and the same runs go through the
// library's door (openMirror, test/helpers/library-run.ts) on PostgreSQL. The keyless runs only move the
// mirror (their claim is read from it): in this process on both; `ds-mirror` on a wrong key says so and
// exits 1 in test/cli/cli.test.ts ('names the fix when the key is wrong').
for (const dialect of dialects) {
  describe(`the mirror's service, and a sync that finds its streams leased (${dialect})`, () => {
    let t: TestStore;
    beforeAll(async () => {
      t = await openTestStore(dialect);
    });
    afterAll(() => t?.cleanup());
    const claims = async () => (await t.store.db.selectFrom('mirrored_service').select('base_url').execute()).map((r) => r.base_url);
    const flags = () => ({ config: '', db: t.url, dbSchema: t.schema });
    const outcomes = (run: SyncRun) => Object.fromEntries(run.streams.map((s) => [s.stream, s.outcome]));

    it('is claimed by no keyless answer: a wrong key, or the market stats alone, claim nothing', async () => {
      const wrongKey = await libraryRun(flags(), { url: sandbox.url, apiKey: 'a-wrong-key' }, { streams: ['market-stats', 'chains'] });
      expect(wrongKey.outcome).toBe('failed');
      expect(outcomes(wrongKey)['market-stats']).toBe('success'); // keyless: answered whatever the key
      expect(wrongKey.keysRefused).toHaveLength(1);
      expect(await claims()).toEqual([]);
      const keyless = await libraryRun(flags(), sandbox, { streams: ['market-stats'] });
      expect(keyless.outcome).toBe('success');
      expect(await claims()).toEqual([]);
    });

    it('every stream leased by another worker: says so in one line, names the worker, and exits 3; one free runs, and its keyed answer claims the mirror', async () => {
      const worker = 'another-host:4242:cafe0001';
      for (const stream of ['chains', 'sectors']) expect(await t.store.acquireLease(`sync:${stream}`, worker, 600_000)).not.toBeNull();
      if (dialect === 'sqlite') {
        const out = await cli([...dbArgs(t), 'sync', 'chains', 'sectors', '--no-progress'], dir);
        expect(out.code).toBe(3);
        expect(out.stdout).toBe('');
        expect(out.stderr.trim().split('\n')).toHaveLength(1);
        expect(out.stderr).toMatch(
          /^ds-mirror: nothing was synced: every stream asked \(2\) is being synced by another worker \(another-host:4242:cafe0001\); run again once it has finished\n$/,
        );
      } else {
        const held = await libraryRun(flags(), sandbox, { streams: ['chains', 'sectors'] });
        expect(held.heldElsewhere).toEqual([worker]);
        expect(held.requests).toBe(0);
      }
      expect(await claims()).toEqual([]);
      // One stream of the two free: that one runs, the other is a row of the summary, exit 0 as before
      // (main() in this process: the summary is its output wherever it runs; exit 0 through a process is every
      // spawned sync's, e.g. this file's syncedFolder).
      await t.store.db.deleteFrom('leases').where('name', '=', 'sync:sectors').execute();
      if (dialect === 'sqlite') {
        const some = await cliInProcess([...dbArgs(t), 'sync', 'chains', 'sectors', '--no-progress'], {
          DS_LOG_LEVEL: 'warn',
          DS_BASE_URL: sandbox.url,
          DS_API_KEY: sandbox.apiKey,
        });
        expect(some.code).toBe(0);
        expect(some.stdout).toMatch(/^chains .* skipped/m);
        expect(some.stdout).toMatch(/^sectors .* success$/m);
      } else {
        const some = await libraryRun(flags(), sandbox, { streams: ['chains', 'sectors'] });
        expect(outcomes(some)).toEqual({ chains: 'skipped', sectors: 'success' });
      }
      expect(await claims()).toEqual([sandbox.url]); // sectors: a keyed list
    });
  });
}

let synced: Promise<string> | undefined;
/**
 * A folder whose data/mirror.db a newcomer's `sync chains` made, once a file: the read-only case reads it
 * in place (and proves it unchanged), the disk case syncs copies of it.
 */
function syncedFolder(): Promise<string> {
  synced ??= (async () => {
    const folder = mkdtempSync(join(dir, 'mirror-'));
    const out = await cli(['sync', 'chains', '--no-progress'], folder);
    expect(out.code, out.stderr).toBe(0);
    return folder;
  })();
  return synced;
}

describe('mistakes in an empty folder (SQLite: the files a newcomer would find)', () => {
  // An unreachable address, in an empty folder: test/mirror/reach-service.test.ts ('sync against a closed port').
  it('sync --plan and an unknown --db scheme make no file', async () => {
    const empty = mkdtempSync(join(dir, 'empty-'));
    const plan = await cli(['sync', '--plan'], empty);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/requests/);
    // The commands that only read, in an empty folder, are test/cli/read-only.test.ts's first case.
    // Refused before anything is opened, by main() in this process: exit 2 and one line through a process
    // are test/cli/cli.test.ts's first case (the same refusal of input, whatever the input).
    for (const args of [
      ['--db', 'sqllite:x.db', 'sync', '--plan'],
      ['--db', 'sqllite:x.db', 'status'],
      ['--db', 'file:x.db', 'sync', 'chains'],
    ]) {
      const out = await cliInProcess(args, { DS_BASE_URL: sandbox.url, DS_API_KEY: sandbox.apiKey });
      expect(out.code, args.join(' ')).toBe(2);
      expect(out.stderr).toBe(
        `ds-mirror: --db ${args[1]}: unsupported scheme; use postgres://..., sqlite:path/to/file.db or a file path\n`,
      );
    }
    expect(readdirSync(empty)).toEqual([]);
    expect(existsSync('x.db')).toBe(false); // the in-process runs' folder
  });

  it('read-only commands and --plan on a mirror leave it as it was, with no -wal or -shm', async () => {
    const folder = await syncedFolder();
    const data = join(folder, 'data');
    expect(readdirSync(data)).toEqual(['mirror.db']);
    const before = sha(join(data, 'mirror.db'));
    // `status` through a process in the folder (the default --db, and a process that ends: a connection it
    // left open would leave its -wal and -shm). The others open the file through the same opening
    // (openMirrorToRead; `status --json` and `status --html` read what this reads), so main() runs them in
    // this process on the same file: a write would change its hash, a connection left open keeps its -wal
    // and -shm in the folder when it is listed.
    const db = `sqlite:${join(data, 'mirror.db')}`;
    const env = { DS_LOG_LEVEL: 'warn', DS_BASE_URL: sandbox.url, DS_API_KEY: sandbox.apiKey };
    for (const args of [
      ['status'],
      ['budget'],
      ['jobs'],
      ['views'],
      ['export', 'chains', '--out', join(folder, 'chains.csv')],
      ['sync', '--plan'],
    ]) {
      const out = args[0] === 'status' ? await cli(args, folder) : await cliInProcess(['--db', db, ...args], env);
      expect([0, 1], `${args.join(' ')}: ${out.stderr}`).toContain(out.code); // budget and jobs say 1 when the schedule does not fit
      expect(readdirSync(data), args.join(' ')).toEqual(['mirror.db']);
    }
    expect(sha(join(data, 'mirror.db'))).toBe(before);
  });
});

/** A small filesystem of its own (tmpfs, mounted as root), or null where none can be made. */
async function smallDisk(at: string, size: string): Promise<boolean> {
  mkdirSync(at, { recursive: true });
  try {
    await execFileP('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', at]);
    return true;
  } catch {
    return false;
  }
}

describe('a disk that fills up (SQLite: a PostgreSQL server has its own disk)', () => {
  const disk = join(tmpdir(), `ds-newcomer-disk-${process.pid}`);
  let mounted = false;
  afterAll(async () => {
    if (mounted) await execFileP('umount', [disk]).catch(() => {});
    rmSync(disk, { recursive: true, force: true });
  });

  it('at whichever write fills it, the run says "success" only when it exits 0 and its last write committed', async (ctx) => {
    mounted = await smallDisk(disk, '12m');
    // Mounting needs root (or a user namespace): without it no disk can be made small enough to fill.
    if (!mounted) return ctx.skip();
    const base = join(dir, 'base.db');
    copyFileSync(join(await syncedFolder(), 'data/mirror.db'), base);
    const seen: Probe[] = [];
    const probe = async (free: number): Promise<Probe> => {
      const found = await runWithFree(disk, base, free);
      seen.push(found);
      return found;
    };
    // The least free space (to a page) at which the run succeeds, halving from 1 MiB; then, page by page
    // below it, each run fails at a later write, down to the run's own records and the ledger's settling.
    // Each probe is a spawned run: the search stops at the first that shows the run's own last writes
    // failing (the halving usually lands on one: 4 runs, not the 7 of a finished halving from a probed 1 MiB
    // takes). 1 MiB is not probed: a run that succeeds is among the probes (asserted below).
    const lastWritesFailed = () => seen.some((s) => s.chains === 'success' && s.run === 'failed');
    let [lo, hi] = [0, MiB];
    while (hi - lo > PAGE && !lastWritesFailed()) {
      const mid = Math.round((lo + hi) / 2 / PAGE) * PAGE;
      if ((await probe(mid)).run === 'success') hi = mid;
      else lo = mid;
    }
    // Until the run's own last writes fail (the pages below add nothing new).
    for (let free = hi - PAGE; free >= Math.max(0, hi - 8 * PAGE) && !lastWritesFailed(); free -= PAGE) await probe(free);
    // The sweep reached the run's own last writes: a stream that succeeded, in a run that then failed.
    expect(lastWritesFailed(), JSON.stringify(seen)).toBe(true);
    expect(
      seen.some((s) => s.run === 'success'),
      JSON.stringify(seen),
    ).toBe(true);
  }, 400_000);
});

const PAGE = 16 * 1024;
const MiB = 1024 * 1024;

interface Probe {
  free: number;
  code: number;
  /** The chains row's outcome, and the run's. */
  chains: string;
  run: string;
}

/**
 * `sync chains` on a copy of `base` with `free` bytes left on the disk. Whatever it ends with, "success"
 * comes with exit 0 and the run recorded as a success; anything else exits non-zero.
 */
async function runWithFree(disk: string, base: string, free: number): Promise<Probe> {
  rmSync(join(disk, 'data'), { recursive: true, force: true });
  rmSync(join(disk, 'filler'), { force: true });
  mkdirSync(join(disk, 'data'));
  copyFileSync(base, join(disk, 'data/mirror.db'));
  const { bavail, bsize } = statfsSync(disk);
  writeFileSync(join(disk, 'filler'), Buffer.alloc(Math.max(0, bavail * bsize - free)));
  const out = await cli(['sync', 'chains', '--no-progress'], disk);
  const run = /^run \d+: (\w+)/m.exec(out.stdout)?.[1] ?? 'none';
  const chains = /^chains\s.*?\d+\.\d+\s+(\w+)/m.exec(out.stdout)?.[1] ?? 'none';
  if (run !== 'success') {
    expect(out.code, `${free} bytes free: ${out.stdout}${out.stderr}`).not.toBe(0);
    return { free, code: out.code, chains, run };
  }
  expect(out.code, out.stderr).toBe(0);
  rmSync(join(disk, 'filler'));
  const db = new Database(join(disk, 'data/mirror.db'), { readonly: true });
  const last = db.prepare('select outcome from sync_runs order by id desc limit 1').get();
  db.close();
  expect(last).toEqual({ outcome: 'success' });
  return { free, code: out.code, chains, run };
}
