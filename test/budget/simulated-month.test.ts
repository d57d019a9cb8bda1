// @end-to-end
// The default schedule over a simulated month against the sandbox enforcing a /v1 monthly quota,
// scaled from the real plan: the plan's 2,500 requests are 1.27 times what the schedule projects at real
// sizes, so the sandbox's quota is 1.27 times what `budget` projects for this mirror. The /v1 jobs of the
// schedule run on the sandbox's clock, while the sandbox's data changes, at the kinds of fire July holds
// (see walkedInSuite): no request is refused, every run completes, the ledger counts what the service
// counted, the month the runs make (each job's July fires at what its walked runs cost) stays near the
// promise and under the quota, and each stream is as fresh as promised between its cron times.
// The whole month, every one of its 98 fires walked and the month's real spend checked, is
// `npx tsx bench/simulated-month.ts` (DS_TEST_FULL_MONTH=1, SQLite; its figure in bench/RESULTS.md): each
// job's runs cost the same all month at this size, which that walk is there to keep showing.
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultJobs } from '../../src/scheduler/job-files.js';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { familyOf } from '../../src/budget/cost-model.js';
import { projectSchedule } from '../../src/budget/projection.js';
import { QuotaGate } from '../../src/budget/quota-gate.js';
import { UsageLedger } from '../../src/budget/usage-ledger.js';
import { planQuotas } from '../../src/budget/plan-quotas.js';
import type { Quotas } from '../../src/budget/quotas.js';
import { allStreams, resolveStreams } from '../../src/catalog/index.js';
import type { StreamDef } from '../../src/catalog/types.js';
import { configureJobs, jobStreams, nextRuns } from '../../src/scheduler/index.js';
import { runSync } from '../../src/sync/engine.js';
import { fastClient, settings, silent } from '../helpers/mirror.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

/** 2,500 / the default schedule's projection at real sizes (1,962 /v1 requests a month). */
const PLAN_HEADROOM = 2500 / 1962;
const JULY = Date.parse('2025-07-01T00:00:00Z');
const AUGUST = Date.parse('2025-08-01T00:00:00Z');
const HOUR_MS = 3_600_000;
/**
 * The top tier's assets per class: 20 of each class's ~70 at this scale, as 100 are a sliver of the real
 * 133,000 (the default 100 would read nearly every asset twice a day, 62 runs, a third of the month's CPU).
 */
const TOP_ASSETS = 20;
const DAY_MS = 24 * HOUR_MS;

/**
 * The fires walked in the suite, on both stores: the kinds of fire the month holds. July the 1st whole (the
 * month's first runs after June's first sync: both assets-top, daily-catalog, the monthly assets), the first
 * and last weekly charts (the 6th, the 27th), and July the 31st whole (the month's end, a 31st). The calendar
 * (cron times, the month's bounds, the projection) is checked over all 98; the quota gate's ledger is
 * stored and read the same on both stores. This walk has no February, leap day or restart.
 */
const walkedInSuite = (fire: { time: number; job: { name: string } }): boolean => {
  const day = new Date(fire.time).getUTCDate();
  if (fire.job.name === 'weekly-charts') return day === 6 || day === 27;
  return day === 1 || fire.time >= AUGUST - DAY_MS;
};

/** bench/simulated-month.ts: every fire, on SQLite alone, and the month's figures written where it says. */
const FULL_MONTH = process.env.DS_TEST_FULL_MONTH === '1';
const MONTH_REPORT = process.env.DS_TEST_MONTH_REPORT;

const jobs = configureJobs(defaultJobs, {}, 'UTC')
  .map((job) => ({ job, streams: jobStreams(job) }))
  // The jobs that spend the /v1 quota (charts included), the one counted by the month; the hourly
  // token-unlock and monitoring lists spend per-minute quotas of their own.
  .filter(({ streams }) => streams.every((s) => s.kind !== 'custom') && streams.some((s) => familyOf(s) === 'v1'));

/** Every cron time of every job in July, in order: the same for both stores, found once (each cron time costs cron several ms). */
const fires = jobs
  .flatMap(({ job, streams }) => {
    const times: number[] = [];
    for (let at = new Date(JULY - 1); ; ) {
      const [next] = nextRuns(job, 1, at);
      if (next.getTime() >= AUGUST) break;
      times.push(next.getTime());
      at = next;
    }
    return times.map((time) => ({ time, job, streams }));
  })
  .sort((a, b) => a.time - b.time);

/** The longest time between two runs of each stream run twice or more, over the month's cron times. */
function worstAges(month: typeof fires): Map<string, number> {
  const lastRun = new Map<string, number>();
  const worst = new Map<string, number>();
  for (const fire of month) {
    for (const s of fire.streams) {
      const before = lastRun.get(s.name);
      if (before !== undefined) worst.set(s.name, Math.max(worst.get(s.name) ?? 0, fire.time - before));
      lastRun.set(s.name, fire.time);
    }
  }
  return worst;
}

for (const dialect of FULL_MONTH ? (['sqlite'] as const) : dialects) {
  describe(`the default schedule over a month (${dialect})`, () => {
    let sandbox: Sandbox;
    let t: TestStore;

    const run = async (streams: readonly StreamDef[], quotas: Quotas, mode: 'full' | 'incremental') => {
      const gate = new QuotaGate({ ledger: new UsageLedger(t.store), quotas, clock: () => sandbox.now() });
      const client = fastClient(sandbox, { gate, clock: () => sandbox.now().getTime() });
      try {
        return await runSync({ client, store: t.store, logger: silent, settings: settings({ mode, topAssets: TOP_ASSETS }), streams });
      } finally {
        await client.close();
      }
    };

    beforeAll(async () => {
      // Scale 0.1: the longer lists (assets, projects at 100 a page) still take more than one page a run (the
      // projection counts pages), at a third of the rows of scale 0.3 for each run.
      sandbox = await startSandbox({ start: PINNED_START, scale: 0.1, seed: 21 });
      t = await openTestStore(dialect);
      // June: the first sync, before the month the test watches.
      expect((await run(resolveStreams(['v1']), planQuotas({ v1: { requestsPerMonth: null } }), 'incremental')).outcome).toBe('success');
    });
    afterAll(async () => {
      await t?.cleanup();
      await sandbox?.close();
    });

    it('keeps within the scaled quota with no request refused, and as fresh as the budget promised', { timeout: 900_000 }, async () => {
      await sandbox.advance({ seconds: (JULY - sandbox.now().getTime()) / 1000, updateFraction: 0, addFraction: 0, removeFraction: 0 });
      // Asked mid-month, as a user would (a projection by calendar month does not depend on the day).
      const projection = await projectSchedule(
        t.store,
        settings({ topAssets: TOP_ASSETS }),
        jobs,
        planQuotas(),
        new Date(JULY + 16.4 * 24 * HOUR_MS),
        allStreams(),
      );
      const projected = projection.perMonth.v1;
      const quota = Math.ceil(projected * PLAN_HEADROOM);
      sandbox.setQuota(`v1=${quota}/month`);
      const quotas = planQuotas({ v1: { requestsPerMonth: quota } });

      // 2 assets-top and 1 daily-catalog a day, weekly charts, the monthly assets: 98 in July.
      expect(fires.length).toBe(98);
      const walked = FULL_MONTH ? fires : fires.filter(walkedInSuite);
      expect(walked.length).toBe(FULL_MONTH ? 98 : 9);

      const spent = new Map<string, number[]>(); // the /v1 requests of each walked run, by job, as the service counts them
      const v1Used = () => sandbox.quota().families.v1.used.month;
      for (const fire of walked) {
        const seconds = (fire.time - sandbox.now().getTime()) / 1000;
        // The service changes as time passes: about 1% of records a day.
        if (seconds > 0) await sandbox.advance({ seconds, updateFraction: (0.01 * seconds) / 86_400, addFraction: 0, removeFraction: 0 });
        const before = v1Used();
        const result = await run(fire.streams, quotas, fire.job.mode);
        expect(result.outcome, `${fire.job.name} at ${new Date(fire.time).toISOString()}`).toBe('success');
        spent.set(fire.job.name, [...(spent.get(fire.job.name) ?? []), v1Used() - before]);
      }

      const report = sandbox.quota();
      expect([report.refused, report.exceeded]).toEqual([0, false]);
      const used = report.families.v1.used.month;
      expect(used).toBeLessThanOrEqual(quota);
      expect((await new UsageLedger(t.store).usage('v1', new Date(AUGUST - 1))).month).toBe(used);

      // The month the runs make, each job's July fires at what its walked runs cost: close to what budget
      // promised, and within the quota.
      const month = jobs.reduce((sum, { job }) => {
        const runs = spent.get(job.name)!;
        return sum + (fires.filter((f) => f.job === job).length * runs.reduce((a, b) => a + b, 0)) / runs.length;
      }, 0);
      expect(month).toBeLessThanOrEqual(projected * 1.1);
      expect(month).toBeGreaterThanOrEqual(projected * 0.5);
      expect(month).toBeLessThanOrEqual(quota);
      // Every request the service counted came from a walked run (with every fire walked, the month made is
      // the sum of those runs, so it is the month the service counted).
      expect([...spent.values()].flat().reduce((a, b) => a + b, 0)).toBe(used);
      if (MONTH_REPORT)
        writeFileSync(MONTH_REPORT, JSON.stringify({ walked: walked.length, used, month, projected, quota, spent: [...spent] }));

      // Streams run twice or more in the month have an age between runs, from the daemon's calendar: each
      // stays within its promise.
      expect(projection.freshness.find((f) => f.stream === 'assets-top')?.maxAgeMs).toBe(12 * HOUR_MS);
      expect(projection.freshness.find((f) => f.stream === 'projects')?.maxAgeMs).toBe(24 * HOUR_MS);
      const worstAge = worstAges(fires);
      const aged = projection.freshness.filter((f) => worstAge.has(f.stream));
      expect(aged.length).toBeGreaterThan(3);
      for (const f of aged) expect(worstAge.get(f.stream), f.stream).toBeLessThanOrEqual(f.maxAgeMs!);
    });
  });
}
