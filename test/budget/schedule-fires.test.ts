// The schedule's fires are counted day by day (only the hours and minutes it names are looked at): the
// same counts, gaps, busiest days and last fires as a check of every minute, which this test does the
// slow way, for schedules that restrict each field, both day fields at once, and zones off the hour.
import { CronTime } from 'cron';
import { describe, expect, it } from 'vitest';
import { firesBetween, firesEver, firesOver, lastFireAtOrBefore, monthStart } from '../../src/budget/schedule-fires.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
type Field = Record<number, boolean>;
type Job = { schedule: string; timeZone?: string };

/** Fires in the minute starting at UTC `t` (`offset` from UTC to the zone), every field read from the cron library. */
function firesAt(job: Job, t: number, offset: number): number {
  const c = fieldsOf(job);
  const local = new Date(t + offset);
  const size = (f: Field) => Object.keys(f).length;
  if (!c.month![local.getUTCMonth() + 1] || !c.hour![local.getUTCHours()] || !c.minute![local.getUTCMinutes()]) return 0;
  const dom = !!c.dayOfMonth![local.getUTCDate()];
  const dow = !!c.dayOfWeek![local.getUTCDay()];
  const allDom = size(c.dayOfMonth!) === 31;
  const allDow = size(c.dayOfWeek!) >= 7;
  return (allDom ? dow : allDow ? dom : dom || dow) ? size(c.second!) : 0;
}

const parsed = new Map<string, Record<string, Field>>();
function fieldsOf(job: Job): Record<string, Field> {
  const key = `${job.schedule} ${job.timeZone}`;
  if (!parsed.has(key)) parsed.set(key, new CronTime(job.schedule, job.timeZone) as unknown as Record<string, Field>);
  return parsed.get(key)!;
}

/** The zone's offset at `at`: the code under test keeps the one at the start of each count throughout. */
function offsetOf(job: Job, at: Date): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: job.timeZone ?? 'UTC',
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(at);
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute')) - Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS;
}

function slowOver(job: Job, from: Date) {
  const offset = offsetOf(job, from);
  const perMonth: number[] = [];
  const perDay = new Map<number, number>();
  let [last, maxGap] = [null as number | null, 0];
  for (let m = 0; m < 2; m++) {
    let runs = 0;
    for (let t = monthStart(from, m); t < monthStart(from, m + 1); t += MINUTE_MS) {
      const n = firesAt(job, t, offset);
      if (n === 0) continue;
      runs += n;
      perDay.set(Math.floor(t / DAY_MS), (perDay.get(Math.floor(t / DAY_MS)) ?? 0) + n);
      if (last !== null) maxGap = Math.max(maxGap, t - last);
      last = t;
    }
    perMonth.push(runs);
  }
  return { runs: Math.max(...perMonth), maxGapMs: maxGap, runsPerDay: Math.max(0, ...perDay.values()) };
}

function slowBetween(job: Job, from: Date, to: Date): number {
  let runs = 0;
  const offset = offsetOf(job, from);
  for (let t = Math.ceil(from.getTime() / MINUTE_MS) * MINUTE_MS; t < to.getTime(); t += MINUTE_MS) runs += firesAt(job, t, offset);
  return runs;
}

function slowLast(job: Job, at: Date): Date | null {
  const offset = offsetOf(job, at);
  for (let t = Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS; t >= monthStart(at, -13); t -= MINUTE_MS)
    if (firesAt(job, t, offset) > 0) return new Date(t);
  return null;
}

const jobs: Job[] = [
  { schedule: '*/5 * * * *' },
  { schedule: '40 3 * * 0' },
  { schedule: '0 */6 * * *', timeZone: 'Asia/Kolkata' }, // +05:30: local days straddle UTC days
  { schedule: '15 2 1,15 * 1', timeZone: 'UTC' }, // both day fields: either matches
  { schedule: '*/20 9-17 * 3,4 1-5', timeZone: 'America/New_York' },
  { schedule: '30 * * * * *' }, // seconds: one fire a minute, counted as such
];
const at = new Date(Date.UTC(2026, 2, 30, 13, 17, 29));

describe('a schedule counted day by day', () => {
  it.each(jobs)('gives the minute-by-minute counts for $schedule ($timeZone)', (job) => {
    expect(firesOver(job, at)).toEqual(slowOver(job, at));
    const to = new Date(at.getTime() + 9 * DAY_MS + 7 * MINUTE_MS);
    expect(firesBetween(job, at, to)).toBe(slowBetween(job, at, to));
    expect(lastFireAtOrBefore(job, at)).toEqual(slowLast(job, at));
  });

  it('finds no last fire for a schedule that fired in none of the last 13 months, and the fire at the very minute asked', () => {
    expect(lastFireAtOrBefore({ schedule: '0 0 29 2 *' }, at)).toBeNull(); // 29 February: not in 2025 or 2026
    expect(lastFireAtOrBefore({ schedule: '17 13 * * *' }, at)).toEqual(new Date(Date.UTC(2026, 2, 30, 13, 17)));
  });
});

describe('firesEver', () => {
  // The cron library's own answer: its next date, searched over eight years, or its throw.
  const libraryFires = (schedule: string) => {
    try {
      new CronTime(schedule).getNextDateFrom(new Date(Date.UTC(2026, 10, 27)));
      return true;
    } catch {
      return false;
    }
  };
  it.each([
    '0 0 30 2 *', // never: no 30 February
    '0 0 31 4,6,9,11 *', // never: those months have 30 days
    '0 0 31 4,5 *', // 31 May
    '0 0 29 2 *', // leap years only
    '0 0 30 2 1', // both day fields restricted: every Monday of February
    '0 0 * 2 1',
    '0 0 1-7 * 0',
    '*/5 * * * *',
    '0 10 3 * * *', // six fields, seconds first
    '30 4 1 * *',
  ])('%s as the cron library says', (schedule) => {
    expect(firesEver({ schedule })).toBe(libraryFires(schedule));
  });

  it('throws the library error for what is not cron', () => {
    expect(() => firesEver({ schedule: '61 * * * *' })).toThrow(/out of range/);
  });
});
