// @end-to-end
// The CLI as a user runs it: a child process of bin/ds-mirror.js against the sandbox and a temp SQLite file.
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { MIRROR_SCHEMA } from '../../src/mirror-schema/index.js';
import { openStore } from '../../src/store/index.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { libraryRun } from '../helpers/library-run.js';
import { settings, syncOnce } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { LAUNCHER_FLAGS } from '../helpers/launcher.js';

const run = promisify(execFile);

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

let sandbox: Sandbox;
let dir: string;

function environment(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = {
    DS_BASE_URL: sandbox.url,
    DS_API_KEY: sandbox.apiKey,
    DS_DB: `sqlite:${join(dir, 'mirror.db')}`,
    DS_CONFIG: join(dir, 'config.json'),
    DS_LOG_LEVEL: 'warn',
  };
  return { ...process.env, ...base, ...env };
}

/**
 * `main` in this process (test/helpers/cli-in-process.ts): input refused before any file, request or thread
 * (the first test keeps one case spawned, the contract through a process: exit 2 and one line on stderr,
 * whatever the input refused), and the commands that only read, whose output is main()'s wherever it runs
 * (a spawned sync, the refusal of another service, --max-requests and a wrong key keep the exit codes a
 * shell sees).
 */
const inProcess = (args: string[], env: Record<string, string> = {}) => cliInProcess(args, environment(env));
const refusal = inProcess;

async function cli(args: string[], env: Record<string, string> = {}): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...LAUNCHER_FLAGS, 'bin/ds-mirror.js', ...args], {
      env: environment(env),
      timeout: 240_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(async () => {
  sandbox = await startSandbox({ start: PINNED_START, scale: 0.1, seed: 9 });
  dir = mkdtempSync(join(tmpdir(), 'ds-mirror-cli-'));
  const fast = { requestsPerMinute: 1_000_000, concurrency: 8 };
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({ limits: { v1: fast, open: fast, charts: fast, monitoring: fast, tokenUnlocks: fast } }),
  );
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('ds-mirror CLI', () => {
  it('refuses bad input and counts below 1 with one line and exit code 2', { timeout: 180_000 }, async () => {
    // An unknown command is `synk` below; a missing config file, the last case of the bad-URL test. The
    // first case through a process (the exit code and stderr a shell sees); the others main() in this one.
    const cases = [
      ['sync', '--max-requests', '0'],
      ['sync', '--page-window', '0'],
      ['sync', '--select', 'assets=top:-4'],
      ['sync', '--select', 'assets=top:0'],
      ['jobs', '--next', '0'],
      ['synk'],
    ];
    for (const [i, args] of cases.entries()) {
      const { code, stderr } = i === 0 ? await cli(args) : await refusal(args);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
    for (const args of [
      ['sync', '--max-requests', 'many'],
      ['sync', 'no-such-stream'],
      ['sync', '--select', 'assets'],
    ]) {
      const out = await refusal(args);
      expect(out.code, args.join(' ')).toBe(2);
      expect(out.stderr.trim().length, args.join(' ')).toBeGreaterThan(0);
    }
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ pageWindow: 'four' }));
    const invalid = await refusal(['status'], { DS_CONFIG: join(dir, 'bad.json') });
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toMatch(/pageWindow/);
    writeFileSync(join(dir, 'top0.json'), JSON.stringify({ selection: { assets: 'top:0' } }));
    const top0 = await refusal(['sync', '--plan'], { DS_CONFIG: join(dir, 'top0.json') });
    expect(top0.code).toBe(2);
    expect(top0.stderr).toMatch(/selection\.assets/);
  });

  // --help and sync --help through the compiled bundle: test/cli/compiled.test.ts.
  it("prints each command's own help, its defaults as a user would write them", async () => {
    const views = await inProcess(['--db', 'sqlite:x.db', 'help', 'views']);
    expect(views.stdout).toContain('--fetch');
    const jobs = await inProcess(['jobs', '--help']);
    expect(jobs.stdout).toMatch(/--next <n>\s+how many next run times to show \(default: 1\)/);
    expect(jobs.stdout).not.toMatch(/default: \[\]|\(default 1\)/);
    expect([views.code, jobs.code]).toEqual([0, 0]);
    expect(existsSync('x.db')).toBe(false);
  });

  it('touches no file before the configuration is known to be good', { timeout: 120_000 }, async () => {
    const typo = join(dir, 'typo', 'dir', 'x.db');
    const missingFolder = await refusal(['sync', '--plan'], { DS_DB: `sqlite:${typo}` });
    expect(missingFolder.code).toBe(2);
    expect(missingFolder.stderr).toMatch(/folder .*typo.* does not exist/);
    // `status` on a --db that names no mirror: test/cli/read-only.test.ts (`--db sqlite:elsewhere/m.db status`).
    expect(existsSync(join(dir, 'typo'))).toBe(false);

    const fresh = join(dir, 'fresh.db');
    const noService = await refusal(['sync', 'assets', '--no-progress'], { DS_DB: `sqlite:${fresh}`, DS_BASE_URL: '' });
    expect(noService.code).toBe(2);
    expect(noService.stderr).toMatch(/DS_BASE_URL/);
    expect(existsSync(fresh)).toBe(false);
  });

  it('refuses a bad URL, quota or config file in one plain line, before any database file exists', { timeout: 180_000 }, async () => {
    const fresh = join(dir, 'refused.db');
    const env = { DS_DB: `sqlite:${fresh}` };
    const cases: [string[], Record<string, string>, RegExp][] = [
      [
        ['sync', 'chains', '--base-url', 'ftp://example.com'],
        {},
        /--base-url: got "ftp:\/\/example\.com"; expected http\(s\):\/\/host\[:port\]/,
      ],
      [['sync', 'chains', '--base-url', '127.0.0.1:4501'], {}, /--base-url: got "127\.0\.0\.1:4501"; expected http\(s\):\/\/host/],
      [['sync', 'chains'], { DS_BASE_URL: 'example.com' }, /DS_BASE_URL: got "example\.com"; expected http\(s\):\/\//],
      [['sync', 'chains'], { DS_CONFIG: join(dir, 'quota0.json') }, /limits\.v1\.requestsPerMonth: got 0; /],
      [['status'], { DS_CONFIG: join(dir, 'nowhere.json') }, /cannot read the config file .*nowhere\.json: no such file/],
    ];
    writeFileSync(join(dir, 'quota0.json'), JSON.stringify({ limits: { v1: { requestsPerMonth: 0 } } }));
    for (const [args, extra, said] of cases) {
      const out = await refusal(args, { ...env, ...extra });
      expect([out.code, out.stderr.trim().split('\n').length], args.join(' ')).toEqual([2, 1]);
      expect(out.stderr, args.join(' ')).toMatch(said);
      expect(existsSync(fresh), args.join(' ')).toBe(false);
    }
  });

  it('ends quietly, exit 0, when its reader has gone (ds-mirror schema | true)', { timeout: 120_000 }, async () => {
    const { spawnSync } = await import('node:child_process');
    // `true` reads nothing and exits at once: every write meets a closed pipe (EPIPE), whatever the buffer.
    const piped = spawnSync('bash', ['-c', 'set -o pipefail; node bin/ds-mirror.js schema | true'], { encoding: 'utf8' });
    expect([piped.status, piped.stderr]).toEqual([0, '']);
  });

  it('refuses to sync another service into a mirror, saying why, unless --force', { timeout: 120_000 }, async () => {
    // The runs that claim the mirror and find it theirs only move it: through the library's door (the
    // CLI's configuration, preflight and claim; a refusal throws), on a copy of the run's migrated mirror
    // (a new file migrated from src/ costs this process what a spawn costs); the refusal a user reads is spawned.
    copyFileSync(inject('sqliteTemplate'), join(dir, 'one-service.db'));
    const db = `sqlite:${join(dir, 'one-service.db')}`;
    const flags = { config: join(dir, 'config.json'), db };
    await libraryRun(flags, sandbox, { streams: ['chains'] });
    const other = await cli(['sync', 'chains', '--no-progress'], { DS_DB: db, DS_BASE_URL: 'http://127.0.0.1:9/other/' });
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(`this mirror holds ${sandbox.url.replace(/\/$/, '')}, not http://127.0.0.1:9/other`);
    expect(other.stderr).toMatch(/--force/);
    expect(other.stderr).not.toContain(sandbox.apiKey);
    // The same service spelled with a trailing slash is the same service.
    expect((await libraryRun(flags, { url: `${sandbox.url}/`, apiKey: sandbox.apiKey }, { streams: ['chains'] })).outcome).toBe('success');
  });

  it('lists the configured views with their names, from the mirror or the service', { timeout: 120_000 }, async () => {
    const [view] = sandbox.monitoring.views();
    const env = { DS_DB: `sqlite:${join(dir, 'views.db')}`, DS_MONITORING_VIEWS: `${view.slug},no-such-view` };
    // With no mirror yet, `views` says where it looked: test/cli/read-only.test.ts's first case.
    const fetched = await inProcess(['views', '--fetch', '--json'], env);
    expect(fetched.code).toBe(1);
    expect(JSON.parse(fetched.stdout)).toMatchObject([
      { configured: view.slug, id: view.id, name: view.name },
      { configured: 'no-such-view', id: null, note: expect.stringMatching(/unknown to the service/) },
    ]);
    // The mirror `views` reads: synced in this process on a copy of the run's migrated mirror (set-up).
    copyFileSync(inject('sqliteTemplate'), join(dir, 'views.db'));
    const store = await openStore({ migrations: MIRROR_SCHEMA, url: env.DS_DB });
    try {
      const monitoring = { ...settings().monitoring, views: [view.id] };
      expect((await syncOnce(store, sandbox, ['monitoring-views'], { settings: { monitoring } })).outcome).toBe('success');
    } finally {
      await store.close();
    }
    const mirrored = await inProcess(['views'], { ...env, DS_MONITORING_VIEWS: `${view.slug},another-view` });
    expect(mirrored.code).toBe(0);
    expect(mirrored.stdout).toContain(view.name);
    expect(mirrored.stdout).toContain(view.id);
    expect(mirrored.stdout).toMatch(/another-view .*not mirrored yet/);
    const none = await refusal(['views'], { ...env, DS_MONITORING_VIEWS: '', DS_DB: `sqlite:${join(dir, 'no-views.db')}` }); // no mirror read
    expect(none.stdout).toMatch(/no monitoring view is configured.*URL/);
  });

  it('plans without making a request, then syncs, then reports status; the key never shows', async () => {
    sandbox.resetRequestCount();
    // The plans in this process (a plan through a process, in an empty folder: test/cli/newcomer-mistakes.test.ts);
    // the sync between them spawned, its output and exit code as a shell sees them.
    const plan = await inProcess(['sync', 'v1', '--plan']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('/v1/assets?');
    expect(plan.stdout).toMatch(/no request was made/);
    // An empty mirror plans from the real service's published sizes, marked as estimates, against the quota.
    // A list never mirrored is read ahead (#25): at most a window less one page past its end, counted.
    expect(plan.stdout).toMatch(/^assets\s+~1,341 \(\+9 ahead\)\s/m);
    expect(plan.stdout).toMatch(/^\/v1 \(and charts\): ~1,405 requests.*quota 2,500\/month.*2,500 left \(0 used this month\)/m);
    expect(plan.stdout).not.toMatch(/monitoring-views/);
    expect(sandbox.requestCount()).toBe(0);

    const sync = await cli(['sync', 'assets', 'charts', '--no-progress']);
    expect(sync.code).toBe(0);
    expect(sync.stdout).toMatch(/assets\s+\d+\s+\d+/);
    expect(sync.stdout).toMatch(/success/);
    expect(sandbox.requestCount()).toBeGreaterThan(0);

    // Once a complete pass ran, a plain sync reads the top of each class; --full, every page again: plans
    // of the mirror the spawned sync left.
    const top = await inProcess(['sync', 'assets', '--plan']);
    expect(top.stdout).toMatch(/^assets-top\s+3\s+the top 100 of each class, as assets-top: the complete pass ran /m);
    const replan = await inProcess(['sync', 'assets', '--full', '--plan']);
    expect(replan.stdout).not.toContain('≥');
    // Now from the mirror's own sizes, and the ledger counts what the sync sent.
    const pages = ['token', 'equity', 'tokenizedStock'].map(
      (c) => Math.floor((sandbox.records('assets') as { asset_class: string }[]).filter((a) => a.asset_class === c).length / 100) + 1,
    );
    expect(replan.stdout).toMatch(new RegExp(`^assets\\s+${pages.reduce((a, b) => a + b)}\\s`, 'm'));
    expect(replan.stdout).toMatch(/^\/v1 \(and charts\): \d+ requests.*quota 2,500\/month.*, [\d,]+ left \([1-9]\d* used this month\)/m);

    const status = await inProcess(['status', '--json']);
    const rows = JSON.parse(status.stdout) as { stream: string; rows: number; lastSuccess: string | null }[];
    const assets = rows.find((r) => r.stream === 'assets')!;
    expect(assets.rows).toBe(sandbox.records('assets').length);
    expect(assets.lastSuccess).not.toBeNull();

    for (const out of [plan, sync, replan, status]) expect(out.stdout + out.stderr).not.toContain(sandbox.apiKey);
  });

  it('stops at --max-requests with exit code 3 and says it resumes', async () => {
    const out = await cli(['sync', 'assets', '--full', '--max-requests', '2', '--no-progress']);
    expect(out.code).toBe(3);
    expect(out.stdout).toMatch(/--max-requests 2 reached: stopped cleanly at a checkpoint/);
  });

  it('names the fix when the key is wrong', async () => {
    const out = await cli(['sync', 'charts', '--no-progress'], { DS_API_KEY: 'wrong-key' });
    expect(out.code).toBe(1);
    expect(out.stdout).toMatch(/DS_API_KEY/);
    expect(out.stdout + out.stderr).not.toContain('wrong-key');
  });
});
