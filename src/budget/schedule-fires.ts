// When a cron schedule fires, counted as the quotas count: per calendar month and per day, UTC. The
// cron library takes about 5 ms per next date (8,928 for a five-minute job), so the schedule's fields
// (parsed by the library, once per schedule) are matched here instead: day by day, and within a day that
// matches only the hours and minutes the schedule names (a check per minute of two months was 90,000
// Dates per job, a quarter of a second of every sync's start). The zone's offset at the start is used
// throughout (a DST change shifts fires by an hour, not their count).
import { CronTime } from 'cron';

export interface Fires {
  /** Fires in the busier of this calendar month and the next (UTC; whole months): five Sundays, 31 days. */
  runs: number;
  /** The longest time between two fires (ms) over those months: how old its data can get. */
  maxGapMs: number;
  /** The most fires in one UTC day. */
  runsPerDay: number;
}

type Field = Record<number, boolean>;
interface Parsed {
  second: Field;
  minute: Field;
  hour: Field;
  dayOfMonth: Field;
  month: Field;
  dayOfWeek: Field;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/**
 * UTC by its IANA names: its offset is 0 at every moment, known without asking Intl, whose first time zone
 * loads ICU's zone data (20-30 ms of CPU at the start of a command on a configuration with `"timezone": "UTC"`).
 */
export function isUtcZone(timeZone: string | undefined): boolean {
  return timeZone === 'UTC' || timeZone === 'Etc/UTC';
}

function offsetMs(timeZone: string | undefined, at: Date): number {
  if (isUtcZone(timeZone)) return 0;
  if (!timeZone) return -at.getTimezoneOffset() * MINUTE_MS;
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(at);
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const local = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'));
  return local - Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS;
}

/** Whether the schedule fires on the day starting at local time `day` (ms, already shifted into the zone). */
function firesOnDay(c: Parsed, all: { dom: boolean; dow: boolean }, day: number): boolean {
  const d = new Date(day);
  if (!c.month[d.getUTCMonth() + 1]) return false;
  const dom = !!c.dayOfMonth[d.getUTCDate()];
  const dow = !!c.dayOfWeek[d.getUTCDay()];
  // Cron's rule: when both day fields are restricted, either may match.
  return all.dom ? dow : all.dow ? dom : dom || dow;
}

/**
 * The minutes in [from, to) (UTC ms, whole minutes) the schedule fires in, in order (or in reverse), each
 * with its number of fires (one per second the schedule names).
 */
function* fireMinutes(p: Schedule, offset: number, from: number, to: number, reverse = false): Generator<[number, number]> {
  const [start, end] = [from + offset, to + offset]; // local time
  const first = Math.floor(start / DAY_MS) * DAY_MS;
  const last = Math.floor((end - 1) / DAY_MS) * DAY_MS;
  const minutes = reverse ? p.minutesDescending : p.minutes;
  for (let day = reverse ? last : first; reverse ? day >= first : day <= last; day += reverse ? -DAY_MS : DAY_MS) {
    if (!firesOnDay(p.c, p.all, day)) continue;
    for (const m of minutes) {
      const t = day + m;
      if (t >= start && t < end) yield [t - offset, p.all.seconds];
    }
  }
}

/** The start of the calendar month (UTC) `n` months after the one holding `at`. */
export function monthStart(at: Date, n: number): number {
  return Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + n, 1);
}

const known = new Map<string, Fires>();

/** Fires over the calendar month (UTC) holding `from` and the next, whole: the months the quotas count. */
export function firesOver(job: { schedule: string; timeZone?: string }, from: Date): Fires {
  // The same for every day of a month (the offset aside): remembered, so a walk over a year costs 12 counts.
  const key = `${job.schedule}\u0000${job.timeZone ?? ''}\u0000${monthStart(from, 0)}\u0000${offsetMs(job.timeZone, from)}`;
  let fires = known.get(key);
  if (!fires) known.set(key, (fires = countFires(job, from)));
  return fires;
}

/** A schedule rarer than this in two months (monthly, yearly) is scanned over a year for its longest gap. */
const RARE_FIRES = 8;

function countFires(job: { schedule: string; timeZone?: string }, from: Date): Fires {
  const two = scan(job, from, 2);
  const runs = Math.max(...two.perMonth);
  // A monthly job's longest gap is a 31-day month's, which the next two months may not hold.
  const gaps = two.perMonth[0]! + two.perMonth[1]! < RARE_FIRES ? scan(job, from, 13) : two;
  return { runs, maxGapMs: gaps.maxGapMs, runsPerDay: two.runsPerDay };
}

interface Schedule {
  c: Parsed;
  all: { dom: boolean; dow: boolean; seconds: number };
  /** The minutes of a day it fires in (ms from midnight), ascending, and descending. */
  minutes: number[];
  minutesDescending: number[];
  /** The longest time between two of those minutes (0 for one). */
  longestGapInDay: number;
}

const schedules = new Map<string, Schedule>();

/** The most days of each month (February's 29th: the cron library looks eight years ahead, which hold a leap year). */
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether the schedule fires at all (30 February never does), by the cron library's own day rule read on
 * its parsed fields: a day matches when its day of month and its weekday match, a field naming every value
 * matching any, and when both are restricted either one is enough. Asking the library for the next date
 * instead searched day by day with luxon, 5-10 ms a job at the start of every sync. Throws the library's
 * error when the schedule is not cron.
 */
export function firesEver(job: { schedule: string; timeZone?: string }): boolean {
  const { c } = parsed(job);
  const days = (f: Field) => Object.keys(f).map(Number);
  const dom = days(c.dayOfMonth);
  const dow = days(c.dayOfWeek);
  // Every day matches, or every week holds a weekday that does.
  if ((dom.length === 31 && dow.length === 7) || (dow.length !== 7 && dow.length > 0)) return true;
  if (dom.length === 31) return false; // no weekday restricted to none
  return days(c.month).some((m) => dom.some((d) => d <= MONTH_DAYS[m - 1]!));
}

function parsed(job: { schedule: string; timeZone?: string }): Schedule {
  const key = `${job.schedule}\u0000${job.timeZone ?? ''}`;
  let found = schedules.get(key);
  if (!found) schedules.set(key, (found = parse(job)));
  return found;
}

function parse(job: { schedule: string; timeZone?: string }): Schedule {
  // Only the parsed fields are read here (the zone is applied by offsetMs). Without a zone the library
  // asks Intl for the system's (Intl.DateTimeFormat().resolvedOptions()), whose first call loads ICU's
  // locale and zone data: about 30 ms of CPU at every sync's start; an offset of 0 parses the same fields.
  const zoned = job.timeZone && !isUtcZone(job.timeZone);
  const c = (zoned ? new CronTime(job.schedule, job.timeZone) : new CronTime(job.schedule, undefined, 0)) as unknown as Parsed;
  const on = (f: Field) =>
    Object.keys(f)
      .map(Number)
      .filter((k) => f[k])
      .sort((x, y) => x - y);
  const minutes = on(c.hour).flatMap((h) => on(c.minute).map((m) => h * 3_600_000 + m * MINUTE_MS));
  const size = (f: Field) => Object.keys(f).length;
  const all = { dom: size(c.dayOfMonth) === 31, dow: size(c.dayOfWeek) >= 7, seconds: size(c.second) };
  const longestGapInDay = minutes.reduce((gap, t, i) => (i === 0 ? 0 : Math.max(gap, t - minutes[i - 1]!)), 0);
  return { c, all, minutes, minutesDescending: [...minutes].reverse(), longestGapInDay };
}

/** Fires in [from, to): the runs still due before a quota renews. */
export function firesBetween(job: { schedule: string; timeZone?: string }, from: Date, to: Date): number {
  const p = parsed(job);
  const start = Math.ceil(from.getTime() / MINUTE_MS) * MINUTE_MS;
  let minutes = 0;
  for (const [, inRange] of fireDays(p, offsetMs(job.timeZone, from), start, to.getTime())) minutes += inRange.length;
  return minutes * p.all.seconds;
}

/** The job's last fire at or before `at` (within about 13 months), or null. */
export function lastFireAtOrBefore(job: { schedule: string; timeZone?: string }, at: Date): Date | null {
  const to = Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
  for (const [t, n] of fireMinutes(parsed(job), offsetMs(job.timeZone, at), monthStart(at, -13), to, true)) if (n > 0) return new Date(t);
  return null;
}

/**
 * The days in [from, to) (UTC ms) the schedule fires on, each with its minutes in range (ms from local
 * midnight): a whole day's are the schedule's own list, so a five-minute job's two months cost 61 days
 * rather than 17,568 minutes each made and handed out one at a time (35-40 ms of every sync's start).
 */
function* fireDays(p: Schedule, offset: number, from: number, to: number): Generator<[number, readonly number[]]> {
  const [start, end] = [from + offset, to + offset]; // local time
  const first = Math.floor(start / DAY_MS) * DAY_MS;
  const last = Math.floor((end - 1) / DAY_MS) * DAY_MS;
  for (let day = first; day <= last; day += DAY_MS) {
    if (!firesOnDay(p.c, p.all, day)) continue;
    const whole = day >= start && day + DAY_MS <= end;
    yield [day, whole ? p.minutes : p.minutes.filter((m) => day + m >= start && day + m < end)];
  }
}

/** Fires over `months` calendar months (UTC) from the one holding `from`. */
function scan(job: { schedule: string; timeZone?: string }, from: Date, months: number) {
  const p = parsed(job);
  const n = p.all.seconds; // fires a minute
  const offset = offsetMs(job.timeZone, from);
  const bounds = Array.from({ length: months + 1 }, (_, i) => monthStart(from, i));
  const perMonth = new Array<number>(months).fill(0);
  // The fires come in time order: a UTC day's count is complete when the next day's first fire comes.
  let runsPerDay = 0;
  let day = Number.NaN;
  let onDay = 0;
  let last: number | null = null;
  let maxGapMs = 0;
  for (let m = 0; m < months && n > 0; m++) {
    for (const [local, minutes] of fireDays(p, offset, bounds[m]!, bounds[m + 1]!)) {
      const [first, lastMinute] = [local + minutes[0]! - offset, local + minutes[minutes.length - 1]! - offset];
      if (minutes === p.minutes && Math.floor(first / DAY_MS) === Math.floor(lastMinute / DAY_MS)) {
        // A whole day within one UTC day: its fires at once, as the loop below counts them one by one (a
        // five-minute job's two months were 17,568 turns of it, 15 ms of CPU at every command's start).
        perMonth[m]! += n * minutes.length;
        if (Math.floor(first / DAY_MS) !== day) [day, onDay] = [Math.floor(first / DAY_MS), 0];
        onDay += n * minutes.length;
        runsPerDay = Math.max(runsPerDay, onDay);
        maxGapMs = Math.max(maxGapMs, last === null ? 0 : first - last, p.longestGapInDay);
        last = lastMinute;
        continue;
      }
      for (const minute of minutes) {
        const t = local + minute - offset;
        perMonth[m]! += n;
        if (Math.floor(t / DAY_MS) !== day) [day, onDay] = [Math.floor(t / DAY_MS), 0];
        onDay += n;
        runsPerDay = Math.max(runsPerDay, onDay);
        if (last !== null) maxGapMs = Math.max(maxGapMs, t - last);
        last = t;
      }
    }
  }
  return { perMonth, runsPerDay, maxGapMs: maxGapMs || bounds[months]! - bounds[0]! };
}
