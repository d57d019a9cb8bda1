// @end-to-end
// A plain `sync` costs what an incremental run costs: the first makes the complete assets pass, a second
// right after reads the top of each class and costs what `sync --plan` announced, counted in the mirror's
// usage ledger. At the real service's sizes (133,000 assets) that is at most 5% of the first, and the
// figure README.md gives: bench/plain-sync.ts holds both there (its figures in bench/RESULTS.md), since a
// sandbox of real size costs the suite a minute of CPU; here the sandbox is at scale 0.3 (600 assets, 7
// pages of the complete pass against 3 of the top: the behaviour, not the ratio at size).
// With the month nearly spent, a plain sync is refused before its first request in one line with the
// figures, and the daemon's start-up runs too, while /healthz says degraded, naming the family and the renewal.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { UsageLedger } from '../../src/budget/usage-ledger.js';
import { openStore } from '../../src/store/index.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { healthz, waitFor } from '../scheduler/scrape.js';
import { MIRROR_SCHEMA } from '../../src/mirror-schema/index.js';
import { LAUNCHER_FLAGS } from '../helpers/launcher.js';

const run = promisify(execFile);
const fast = { requestsPerMinute: 1_000_000, concurrency: 8 };
let sandbox: Sandbox;
let dir: string;

function env(config: object): NodeJS.ProcessEnv {
  const file = join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify({ timezone: 'UTC', ...config }));
  return {
    ...process.env,
    DS_BASE_URL: sandbox.url,
    DS_API_KEY: sandbox.apiKey,
    DS_DB: `sqlite:${join(dir, 'mirror.db')}`,
    DS_CONFIG: file,
    DS_LOG_LEVEL: 'warn',
  };
}

async function cli(args: string[], config: object): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...LAUNCHER_FLAGS, 'bin/ds-mirror.js', ...args], {
      env: env(config),
      timeout: 600_000,
      maxBuffer: 1e8,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** /v1 requests the mirror has counted in its usage ledger, every day together. */
async function v1Used(): Promise<number> {
  const store = await openStore({ migrations: MIRROR_SCHEMA, url: `sqlite:${join(dir, 'mirror.db')}` });
  try {
    const days = await new UsageLedger(store).history('2000-01-01');
    return days.filter((d) => d.family === 'v1').reduce((n, d) => n + d.requests, 0);
  } finally {
    await store.close();
  }
}

// The ledger's own quota lifted: whatever day this runs on, the schedule's remainder never refuses these two.
const roomy = { limits: { v1: { ...fast, requestsPerMonth: 100_000 }, charts: fast, open: fast } };

beforeAll(async () => {
  sandbox = await startSandbox({ scale: 0.3, seed: 42, start: PINNED_START });
  dir = mkdtempSync(join(tmpdir(), 'ds-mirror-plain-sync-'));
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a plain sync', () => {
  it('makes the complete pass once; a second sync right after reads the top of each class, as its plan announced', async () => {
    const first = await cli(['sync', 'v1', '--no-progress'], roomy);
    expect([first.code, first.stderr]).toEqual([0, '']);
    const firstCost = await v1Used();
    const assetPages = sandbox.records('assets').length / 100;
    expect(firstCost).toBeGreaterThan(assetPages); // every asset, at 100 a page

    // The plan reads the mirror the sync left and prints: main() in this process (a plan through a process
    // is test/cli/cli.test.ts's first; what this one says is read from its output, the same here).
    const plan = await cliInProcess(['sync', 'v1', '--plan'], env(roomy));
    expect(plan.stdout).toMatch(
      /^assets-top\s+3\s+the top 100 of each class, as assets-top: the complete pass ran .* UTC, monthly-assets runs the next \(--full: now\)/m,
    );
    expect(plan.stdout).not.toMatch(/^assets\s/m);
    const next = Number(/^\/v1 \(and charts\): (\d+) requests/m.exec(plan.stdout)?.[1]);
    expect(plan.stdout).toMatch(
      /^after this run, the v1 month: [\d,]+ used \+ \d+ this run \+ ~?\d+ scheduled until .* \(.* to spare\): the schedule still fits$/m,
    );

    const second = await cli(['sync', 'v1', '--no-progress'], roomy);
    expect([second.code, second.stderr]).toEqual([0, '']);
    expect(second.stdout).toMatch(/^assets-top\s/m);
    const secondCost = (await v1Used()) - firstCost;
    expect(secondCost).toBe(next);
    expect(secondCost).toBeLessThanOrEqual(firstCost - assetPages + 3); // 3 pages of the top, not the complete pass
  }, 900_000);

  it('refuses a sync that would leave the month short, in one line before any request; the daemon refuses its start-up runs and says degraded', async () => {
    // Fill the month to 10 short of the standard plan's 2,500: the schedule's remainder no longer fits.
    const store = await openStore({ migrations: MIRROR_SCHEMA, url: `sqlite:${join(dir, 'mirror.db')}` });
    await new UsageLedger(store).reserve('v1', 2_490 - (await v1Used()), {}, new Date());
    await store.close();
    const sent = sandbox.quota().families.v1.requests;
    const standard = { limits: { v1: fast, charts: fast, open: fast } };

    const refused = await cli(['sync', 'v1'], standard);
    expect(refused.code).toBe(3);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr.trim()).toMatch(
      /^refused: this run needs about \d+ v1 requests, which would leave the rest of the schedule short \(the month's v1: 2,490 used \+ \d+ this run \+ ~?\d+ scheduled until \d{4}-\d\d-01 00:00 UTC = [\d,]+ of 2,500 \([\d,]+ over\)\); nothing was requested \(--force to run it anyway: it stops at the quota\)$/,
    );
    expect(sandbox.quota().families.v1.requests).toBe(sent);

    const budget = await cliInProcess(['budget'], env(standard)); // reads the mirror and prints: main() here
    expect(budget.code).toBe(1);
    expect(budget.stdout).toMatch(/^\/v1 \(and charts\), this month: 2,490 used \+ ~?\d+ scheduled until .*: does not fit$/m);
    expect(budget.stdout).not.toMatch(/The schedule fits/);

    const child = spawn(
      process.execPath,
      [
        ...LAUNCHER_FLAGS,
        'bin/ds-mirror.js',
        'daemon',
        '--metrics-port',
        '0',
        '--no-receiver',
        '--run-at-start',
        'all',
        '--stop-timeout',
        '5',
      ],
      {
        env: env({
          ...standard,
          jobs: { 'monitoring-events': { enabled: false }, 'alert-backfill': { enabled: false }, 'monitoring-lists': { enabled: false } },
        }),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout!.on('data', (d) => (out += String(d)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const url = await waitFor('the daemon to start', () => /health (http:\/\/[\d.:]+)\/healthz/.exec(out)?.[1], 120_000);
      expect(out).toMatch(
        /refused at start \(the month's schedule would be short; see the log\): daily-catalog, assets-top, weekly-charts, monthly-assets/,
      );
      const health = await healthz(url);
      expect(health.status).toBe(200);
      const body = health.body as unknown as {
        status: string;
        budget: { family: string; renewsAt: string; reason: string }[];
        startup: { state: string }[];
      };
      expect(body.status).toBe('degraded');
      expect(body.budget).toEqual([
        {
          family: 'v1',
          period: 'month',
          renewsAt: expect.stringMatching(/-01T00:00:00.000Z$/),
          reason: expect.stringMatching(/no longer fits: 2,490 used/),
        },
      ]);
      expect(body.startup.map((s) => s.state)).toEqual(['refused', 'refused', 'refused', 'refused']);
      expect(sandbox.quota().families.v1.requests).toBe(sent);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 300_000);
});
