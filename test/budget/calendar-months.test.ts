// @end-to-end
// The quotas count calendar months and UTC days, so the projection does too: from every day of a year
// (not a convenient 1st of July) the default schedule fits the standard plan, with the monthly assets
// pass counted once a month; and a schedule that overruns is caught on every day, not only on some.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planQuotas } from '../../src/budget/plan-quotas.js';
import { projectSchedule, type ScheduleEntry } from '../../src/budget/projection.js';
import { firesOver } from '../../src/budget/schedule-fires.js';
import { allStreams } from '../../src/catalog/index.js';
import { defaultJobs } from '../../src/scheduler/job-files.js';
import { configureJobs, jobStreams } from '../../src/scheduler/index.js';
import { syncSettings } from '../../src/sync/settings.js';
import { openTestStore, type TestStore } from '../helpers/stores.js';

const DAY_MS = 86_400_000;
const schedule = (overrides: Record<string, { schedule: string }> = {}): ScheduleEntry[] =>
  configureJobs(defaultJobs, overrides, 'UTC')
    .filter((j) => j.enabled)
    .map((job) => ({ job, streams: jobStreams(job) }));

/** Every day of a year, at an awkward minute of it. */
const days = Array.from({ length: 365 }, (_, i) => new Date(Date.UTC(2026, 0, 1) + i * DAY_MS + 13 * 3_600_000 + 17 * 60_000));

/**
 * One day for each different calendar the schedule sees over `walk`: projectSchedule reads its day only
 * through firesOver(job, day) (runs in the month, runs a day, the longest gap), and the store here never
 * changes, so two days whose jobs fire alike project alike. Every day is still walked, by firesOver.
 */
function daysOfEachCalendar(entries: ScheduleEntry[], walk: Date[]): Date[] {
  const byCalendar = new Map<string, Date>();
  for (const day of walk) {
    const key = JSON.stringify(entries.map(({ job }) => firesOver(job, day)));
    if (!byCalendar.has(key)) byCalendar.set(key, day);
  }
  return [...byCalendar.values()];
}

describe('the projection by calendar month', () => {
  let t: TestStore; // empty: the real service's published sizes
  beforeAll(async () => {
    t = await openTestStore('sqlite');
  });
  afterAll(() => t.cleanup());

  it('finds the default schedule within the standard plan on every day of a year', async () => {
    const quotas = planQuotas(undefined);
    const unfit: string[] = [];
    const perMonth = new Set<number>();
    const projected = daysOfEachCalendar(schedule(), days);
    expect(projected.length).toBeGreaterThan(1); // the months differ, so the walk projects more than one day
    for (const day of projected) {
      const p = await projectSchedule(t.store, syncSettings({}), schedule(), quotas, day, allStreams());
      if (p.problems.length > 0) unfit.push(`${day.toISOString().slice(0, 10)}: ${p.problems.join('; ')}`);
      perMonth.add(Math.round(p.perMonth.v1));
      expect(p.jobs.find((j) => j.job === 'monthly-assets')?.runsPerMonth).toBe(1);
    }
    expect(unfit).toEqual([]);
    expect(Math.max(...perMonth)).toBeLessThanOrEqual(2_500);
    expect(Math.min(...perMonth)).toBeGreaterThan(1_000); // the walk measured something
  });

  it('catches a schedule over its quota on every day of a year, naming the job', async () => {
    const hourlyCharts = schedule({ 'weekly-charts': { schedule: '0 * * * *' } });
    for (const day of daysOfEachCalendar(hourlyCharts, days)) {
      const p = await projectSchedule(t.store, syncSettings({}), hourlyCharts, planQuotas(undefined), day, allStreams());
      expect(p.problems.join('\n'), day.toISOString()).toMatch(/over the quota of 2,500: weekly-charts/);
    }
  });

  it('counts a monthly job once and a weekly one four or five times per calendar month, from any day', () => {
    for (const day of days) {
      expect(firesOver({ schedule: '30 4 1 * *' }, day).runs).toBe(1);
      expect([4, 5]).toContain(firesOver({ schedule: '40 3 * * 0' }, day).runs);
      expect(firesOver({ schedule: '*/5 * * * *' }, day).runsPerDay).toBe(288);
    }
  });
});
