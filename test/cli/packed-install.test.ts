// @end-to-end
// The package as a user installs it: `npm pack`'s tarball unpacked where `npm install -g` puts it, its bin
// linked on a PATH, run from a folder outside the checkout. No registry: the tarball's dependencies are
// the checkout's node_modules (an install would fetch the same ones; better-sqlite3's native build would
// need the network). Then a sync, started that way, stops cleanly on SIGINT with its documented exit
// code: the run recorded as stopped, no lease left.
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/types.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { waitFor } from '../scheduler/scrape.js';
import { MIRROR_SCHEMA } from '../../src/mirror-schema/index.js';

const run = promisify(execFile);
const unlimited = { requestsPerMinute: 1_000_000, concurrency: 8 };
let sandbox: Sandbox;
let dir: string;
let bin: string;
let installed: string;
let work: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  sandbox = await startSandbox({ start: PINNED_START, scale: 0.2, seed: 4 });
  dir = mkdtempSync(join(tmpdir(), 'ds-mirror-packed-'));
  // The build is the one `npm test` made (pretest); packing again would rebuild it.
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir], { timeout: 120_000 });
  const tarball = join(dir, stdout.trim().split('\n').pop()!);
  installed = join(dir, 'lib', 'node_modules', 'ds-mirror');
  mkdirSync(installed, { recursive: true });
  await run('tar', ['xzf', tarball, '-C', installed, '--strip-components=1']);
  symlinkSync(realpathSync('node_modules'), join(installed, 'node_modules'));
  mkdirSync(join(dir, 'bin'));
  bin = join(dir, 'bin', 'ds-mirror');
  symlinkSync(join(installed, 'bin', 'ds-mirror.js'), bin);
  work = join(dir, 'work');
  mkdirSync(work);
  writeFileSync(
    join(work, 'ds-mirror.config.json'),
    JSON.stringify({
      pageWindow: 1,
      limits: { v1: unlimited, open: unlimited, monitoring: unlimited, tokenUnlocks: unlimited },
      jobs: Object.fromEntries(
        ['daily-catalog', 'assets-top', 'weekly-charts', 'monitoring-lists', 'monitoring-events', 'alert-backfill'].map((j) => [
          j,
          { enabled: false },
        ]),
      ),
    }),
  );
  // The shebang finds node on the PATH, as in a shell.
  env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('DS_')));
  Object.assign(env, {
    PATH: [join(dir, 'bin'), dirname(process.execPath), process.env.PATH].join(delimiter),
    DS_BASE_URL: sandbox.url,
    DS_API_KEY: sandbox.apiKey,
    DS_LOG_LEVEL: 'warn',
  });
}, 180_000);

afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the packed package, installed', () => {
  // One process a command, in an order that proves the code caches too (src/cli/cached-start.ts): jobs,
  // --version, again past a cache V8 rejects, a sync stopped by SIGINT (a failed run: a partial cache), then a
  // sync that succeeds (its whole cache in the partial's place), then status.
  const cacheDir = () => join(installed, 'dist', 'code-cache');
  const caches = () => readdirSync(cacheDir());
  const commands = () => caches().map((f) => f.replace(/^[0-9a-f]{16}-/, ''));

  it('runs from a folder outside the checkout, with its own jobs, and starts past a code cache V8 rejects', async () => {
    const shipped = readdirSync(join(dir, 'lib', 'node_modules', 'ds-mirror')).sort();
    expect(shipped).toEqual(['README.md', 'bin', 'dist', 'jobs', 'node_modules', 'package.json']);
    const jobs = await run('ds-mirror', ['jobs', '--json'], { cwd: work, env });
    const names = (JSON.parse(jobs.stdout) as { name: string }[]).map((j) => j.name).sort();
    expect(names).toEqual(
      readdirSync('jobs')
        .map((f) => f.replace(/^\d+-|\.json$/g, ''))
        .sort(),
    );
    const version = await run('ds-mirror', ['--version'], { cwd: work, env });
    expect(version.stdout.trim()).toBe((JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version);
    // Each command left its code cache; one V8 rejects is compiled from source and made anew.
    expect(commands().sort()).toEqual(['jobs.bin', 'none.bin']);
    const none = join(cacheDir(), caches().find((f) => f.endsWith('-none.bin'))!);
    writeFileSync(none, 'not compiled code');
    const again = await run('ds-mirror', ['--version'], { cwd: work, env });
    expect(again.stdout).toBe(version.stdout);
    expect(readFileSync(none).length).toBeGreaterThan(1000);
  });

  // SIGINT, the signal proven nowhere else, on a sync: SIGTERM ends both long-running commands started from
  // the checkout (test/scheduler/daemon-cli.test.ts, test/hostile/sync-stop-signal.test.ts), and one handler
  // takes both signals for both (src/cli/stop-signal.ts, onStopSignal, which the daemon's command calls too);
  // the install adds no process in between (its bin is node itself). A daemon under SIGINT here proved
  // nothing more, and its start-up runs cost more than the sync.
  it('ds-mirror sync stops on SIGINT with exit 3: its run closed as stopped, no lease held, a partial cache', async () => {
    const db = join(work, 'sync-SIGINT.db');
    sandbox.setChaos({ latencyMs: 1000 }); // slow pages: the signal finds the assets list half-way
    const child = spawn('ds-mirror', ['--db', `sqlite:${db}`, 'sync', 'assets', '--no-progress'], {
      cwd: work,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    // One reading connection, opened once the run has made the mirror: each poll reads the latest commit.
    let reader: Store | undefined;
    try {
      await waitFor(
        'a checkpoint of the assets list',
        async () => {
          if (child.exitCode !== null) throw new Error(`exited early with ${child.exitCode}: ${stderr}`);
          reader ??= await openStore({ migrations: MIRROR_SCHEMA, url: `sqlite:${db}`, readOnly: true }).catch(() => undefined);
          return (await reader?.getState('assets'))?.checkpoint ? true : undefined;
        },
        120_000,
      );
      child.kill('SIGINT');
      expect(await exited).toBe(3);
    } finally {
      await reader?.close();
      sandbox.setChaos(null);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    const store = await openStore({ migrations: MIRROR_SCHEMA, url: `sqlite:${db}`, readOnly: true });
    try {
      const runs = await store.db.selectFrom('sync_runs').select(['outcome', 'finished_at']).execute();
      expect(runs).toEqual([{ outcome: 'stopped', finished_at: expect.any(String) }]);
      expect(await store.db.selectFrom('leases').selectAll().execute()).toEqual([]);
    } finally {
      await store.close();
    }
    // A run that failed compiled part of its command: its cache is partial.
    expect(commands().filter((f) => f.startsWith('sync'))).toEqual(['sync.partial.bin']);
  }, 240_000);

  it("syncs into data/ under the working folder, status reads it, and the sync's whole cache replaces the partial one", async () => {
    const partial = statSync(join(cacheDir(), caches().find((f) => f.endsWith('-sync.partial.bin'))!)).size;
    const sync = await run('ds-mirror', ['sync', 'chains', '--no-progress'], { cwd: work, env, timeout: 120_000 });
    expect(sync.stdout).toMatch(/chains/);
    expect(readdirSync(join(work, 'data'))).toContain('mirror.db');
    // The first run that succeeds writes the whole cache (what both runs compiled) in the partial's place.
    expect(commands().filter((f) => f.startsWith('sync'))).toEqual(['sync.bin']);
    expect(statSync(join(cacheDir(), caches().find((f) => f.endsWith('-sync.bin'))!)).size).toBeGreaterThan(partial);
    const status = await run('ds-mirror', ['status', '--json'], { cwd: work, env });
    expect((JSON.parse(status.stdout) as { stream: string; rows: number }[]).find((r) => r.stream === 'chains')?.rows).toBe(
      sandbox.records('chains').length,
    );
    expect(commands().sort()).toEqual(['jobs.bin', 'none.bin', 'status.bin', 'sync.bin']);
  }, 240_000);
});
