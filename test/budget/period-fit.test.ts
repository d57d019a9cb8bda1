// @end-to-end
// "The schedule fits" means the rest of this period fits what is left of it: what was used, plus the
// schedule's runs still due before the renewal, against the quota. Walked over the days a month can
// end or start on (the 1st before and after the monthly pass, the middle, the last day of a 31-day
// month, February in a common and a leap year), with the fires counted independently by the cron
// library, on both stores; /healthz's reasons (an allowance spent, a schedule that no longer fits)
// come from the same figures.
import { CronTime } from 'cron';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgetAlarmsAt } from '../../src/budget/budget-health.js';
import { usageOf } from '../../src/budget/budget-report.js';
import { periodFits } from '../../src/budget/period-fit.js';
import { planQuotas } from '../../src/budget/plan-quotas.js';
import { projectSchedule, type ScheduleEntry } from '../../src/budget/projection.js';
import { UsageLedger } from '../../src/budget/usage-ledger.js';
import { allStreams } from '../../src/catalog/index.js';
import { configureJobs, jobStreams } from '../../src/scheduler/index.js';
import { defaultJobs } from '../../src/scheduler/job-files.js';
import type { Store } from '../../src/store/types.js';
import { syncSettings } from '../../src/sync/settings.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const schedule: ScheduleEntry[] = configureJobs(defaultJobs, {}, 'UTC')
  .filter((j) => j.enabled)
  .map((job) => ({ job, streams: jobStreams(job) }));
const settings = syncSettings({});

const DATES = [
  '2026-03-01T00:10:00Z', // the 1st, before the monthly pass at 04:30
  '2026-03-01T04:31:00Z', // the 1st, just after it
  '2026-03-15T13:17:00Z', // the middle
  '2026-03-31T23:50:00Z', // the last minutes of a 31-day month
  '2026-02-28T12:00:00Z', // the last day of a common February
  '2028-02-28T12:00:00Z', // a leap February: one more day to go
  '2026-04-30T03:00:00Z', // the last day of a 30-day month, before its daily run
];

const counted = new Map<string, number>();

/**
 * The fires in [from, to), one by one from the cron library: the oracle. Asked again by the second store for
 * the same dates, it answers from what it counted (about 5 ms a fire, 250 fires a store).
 */
function firesByCron(expr: string, from: Date, to: Date): number {
  const key = `${expr} ${from.toISOString()} ${to.toISOString()}`;
  let runs = counted.get(key);
  if (runs !== undefined) return runs;
  const cron = new CronTime(expr, 'UTC');
  runs = 0;
  for (let at = cron.getNextDateFrom(new Date(from.getTime() - 1)).toJSDate(); at < to; runs++) at = cron.getNextDateFrom(at).toJSDate();
  counted.set(key, runs);
  return runs;
}

async function setUsed(store: Store, at: Date, used: number): Promise<void> {
  await store.db.deleteFrom('usage_ledger').execute();
  if (used > 0) await new UsageLedger(store).reserve('v1', used, {}, at);
}

for (const dialect of dialects) {
  describe(`the rest of this period's schedule (${dialect})`, () => {
    let t: TestStore; // empty: the real service's published sizes
    beforeAll(async () => {
      t = await openTestStore(dialect);
    });
    afterAll(() => t.cleanup());

    it('adds the runs still due before the renewal to what was used, on every kind of date', async () => {
      const quotas = planQuotas();
      for (const iso of DATES) {
        const at = new Date(iso);
        const projection = await projectSchedule(t.store, settings, schedule, quotas, at, allStreams());
        const renewal = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
        let expected = 0;
        schedule.forEach(({ job }, i) => {
          const perRun = projection.jobs[i]!.perRun.filter((c) => c.family === 'v1').reduce((n, c) => n + c.requests, 0);
          if (perRun > 0) expected += perRun * firesByCron(job.schedule, at, renewal);
        });
        await setUsed(t.store, at, 0);
        const [fresh] = periodFits(projection, schedule, await usageOf(t.store, quotas, at), at);
        expect({ iso, ...fresh }).toMatchObject({
          iso,
          family: 'v1',
          period: 'month',
          used: 0,
          fits: true,
          renewsAt: renewal.toISOString(),
        });
        expect(fresh!.scheduled).toBe(Math.ceil(expected));
        // The monthly pass counts only before it fires, on the 1st.
        expect(fresh!.scheduled > 1332).toBe(iso === '2026-03-01T00:10:00Z');

        // Exactly what is left fits; one request more does not, and /healthz names the family and renewal.
        await setUsed(t.store, at, 2500 - fresh!.scheduled);
        const [edge] = periodFits(projection, schedule, await usageOf(t.store, quotas, at), at);
        expect([iso, edge!.fits]).toEqual([iso, true]);
        // At the quota with nothing more scheduled, the allowance is spent: that is said too.
        const spent = fresh!.scheduled === 0 ? [expect.objectContaining({ reason: expect.stringMatching(/allowance is spent/) })] : [];
        expect(await budgetAlarmsAt({ store: t.store, settings, schedule, quotas }, at)).toEqual(spent);
        await setUsed(t.store, at, 2501 - fresh!.scheduled);
        const [over] = periodFits(projection, schedule, await usageOf(t.store, quotas, at), at);
        expect([iso, over!.fits]).toEqual([iso, false]);
        const alarms = await budgetAlarmsAt({ store: t.store, settings, schedule, quotas }, at);
        expect(alarms).toEqual([
          {
            family: 'v1',
            period: 'month',
            renewsAt: renewal.toISOString(),
            reason: expect.stringMatching(fresh!.scheduled > 0 ? /no longer fits: .* \(1 over\)$/ : /spent \(2,501 of 2,500\)/),
          },
        ]);
      }
    });

    it('says an allowance is spent, and counts a day quota to the next UTC midnight', async () => {
      const quotas = planQuotas({ v1: { requestsPerDay: 2000 } });
      const at = new Date('2026-03-31T23:50:00Z');
      await setUsed(t.store, at, 2500);
      const alarms = await budgetAlarmsAt({ store: t.store, settings, schedule, quotas }, at);
      expect(alarms.map((a) => [a.period, a.renewsAt])).toEqual([
        ['day', '2026-04-01T00:00:00.000Z'],
        ['month', '2026-04-01T00:00:00.000Z'],
      ]);
      expect(alarms[1]!.reason).toMatch(/the v1 month's allowance is spent \(2,500 of 2,500\)/);
      // The next minute of a new month and day: nothing used, nothing spent.
      expect(await budgetAlarmsAt({ store: t.store, settings, schedule, quotas }, new Date('2026-04-01T00:01:00Z'))).toEqual([]);
    });

    it('fits whatever the date when the plan has no monthly quota', async () => {
      const quotas = planQuotas({ v1: { requestsPerMonth: null } });
      for (const iso of DATES) {
        const at = new Date(iso);
        const projection = await projectSchedule(t.store, settings, schedule, quotas, at, allStreams());
        expect(periodFits(projection, schedule, await usageOf(t.store, quotas, at), at)).toEqual([]);
      }
    });
  });
}
