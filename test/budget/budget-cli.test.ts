// @end-to-end
// budget, jobs and sync as a user runs them (bin/ds-mirror.js in a child process): the default schedule
// fits the standard plan; a schedule that does not is reported by budget (exit 1) and jobs, naming the job;
// a sync that would overrun the month is refused, and under --force one that meets a spent quota ends
// with exit 3 and one line saying which quota and when it renews.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { UsageLedger } from '../../src/budget/usage-ledger.js';
import { openStore } from '../../src/store/index.js';
import { MIRROR_SCHEMA } from '../../src/mirror-schema/index.js';
import { LAUNCHER_FLAGS } from '../helpers/launcher.js';

const run = promisify(execFile);
let sandbox: Sandbox;
let dir: string;
const fast = { requestsPerMinute: 1_000_000, concurrency: 8 };

async function cli(args: string[], config: object, db = 'mirror.db'): Promise<{ code: number; stdout: string; stderr: string }> {
  const file = join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(config));
  const env = {
    ...process.env,
    DS_BASE_URL: sandbox.url,
    DS_API_KEY: sandbox.apiKey,
    DS_DB: `sqlite:${join(dir, db)}`,
    DS_CONFIG: file,
    DS_LOG_LEVEL: 'warn',
  };
  try {
    const { stdout, stderr } = await run(process.execPath, [...LAUNCHER_FLAGS, 'bin/ds-mirror.js', ...args], { env, timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(async () => {
  sandbox = await startSandbox({ start: PINNED_START, scale: 0.2, seed: 13 });
  dir = mkdtempSync(join(tmpdir(), 'ds-mirror-budget-cli-'));
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('budget on the command line', () => {
  it('says the default schedule fits the standard plan, from the published sizes on an empty mirror', async () => {
    const out = await cli(['budget'], {}, 'empty.db');
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^\/v1 \(and charts\): ~1,962 a month of 2,500 \(78%\)/m);
    expect(out.stdout).toMatch(
      /^\/v1 \(and charts\), this month: 0 used \+ ~[\d,]+ scheduled until \d{4}-\d\d-01 00:00 UTC = [\d,]+ of 2,500 \([\d,]+ to spare\)$/m,
    );
    expect(out.stdout).toMatch(/The schedule fits the quotas: a whole month of it, and the rest of this one\./);
    expect(out.stdout).toMatch(/^assets-top\s+12 h\s+assets-top$/m);
    expect(out.stdout).toMatch(/^assets\s+31 days\s+monthly-assets$/m);
  });

  it('budget --release clears a hold the service announced, and refuses a family it does not know in one line', async () => {
    const store = await openStore({ migrations: MIRROR_SCHEMA, url: `sqlite:${join(dir, 'held.db')}` });
    await new UsageLedger(store).hold(
      { family: 'monitoring', until: new Date(Date.now() + 3_600_000), reason: 'quota exceeded' },
      new Date(),
    );
    await store.close();
    const released = await cli(['budget', '--release', 'monitoring'], {}, 'held.db');
    expect([released.code, released.stdout]).toEqual([
      0,
      expect.stringMatching(/^released the monitoring hold \(until .* UTC; the service said: quota exceeded\)\n$/),
    ]);
    const again = await cli(['budget', '--release', 'monitoring'], {}, 'held.db');
    expect(again.stdout).toBe('no hold on monitoring: nothing to release\n');
    const bad = await cli(['budget', '--release', 'monitor'], {}, 'held.db');
    expect([bad.code, bad.stderr.trim().split('\n').length]).toEqual([2, 1]);
    expect(bad.stderr).toMatch(/--release takes a quota family \(v1, tokenUnlocks, monitoring, open\); got "monitor"/);
  });

  it('reports a schedule over its quota in budget (exit 1) and jobs, naming the job that overruns', async () => {
    const config = { jobs: { 'weekly-charts': { schedule: '0 * * * *' } } };
    const budget = await cli(['budget'], config, 'empty.db');
    expect(budget.code).toBe(1);
    expect(budget.stdout).toMatch(
      /does not fit the quotas:\n {2}- the schedule needs about [\d,]+ v1 requests a month, over the quota of 2,500: weekly-charts [\d,]+/,
    );
    const jobs = await cli(['jobs'], config, 'empty.db');
    expect(jobs.stderr).toMatch(/schedule over quota: .*weekly-charts/);
  });

  it('stops a sync at a spent monthly quota with exit 3 and the quota and its renewal on one line', async () => {
    const config = { limits: { v1: { ...fast, requestsPerMonth: 4 }, open: fast, monitoring: fast, tokenUnlocks: fast } };
    // The run would leave the month's schedule short: refused before any request, unless --force.
    const refused = await cli(['sync', 'v1', '--no-progress'], config, 'quota.db');
    expect([refused.code, refused.stderr]).toEqual([
      3,
      expect.stringMatching(/^refused: this run needs about [\d,]+ v1 requests.*--force/),
    ]);
    const out = await cli(['sync', 'v1', '--no-progress', '--force'], config, 'quota.db');
    expect(out.code).toBe(3);
    const lines = out.stdout.split('\n').filter((l) => l.startsWith('quota: '));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^quota: the \/v1 monthly quota is spent \(4 of 4 requests\); it renews \d{4}-\d\d-01 00:00 UTC; the next run after that resumes at the checkpoints$/,
    );
    const status = await cli(['status'], config, 'quota.db');
    expect(status.stdout).toMatch(/^\/v1 \(and charts\)\s+4\/month, [\d,]+\/min\s+4\s+4\s+0\s/m);
  });
});
