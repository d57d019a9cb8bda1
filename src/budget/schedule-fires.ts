// When a cron schedule fires over a month. The cron library takes about 5 ms per next date (8,928 for
// a five-minute job), so the schedule's fields (parsed by the library) are matched minute by minute
// here instead: 89,280 cheap checks for two months. The zone's offset at the window's start is used
// throughout (a DST change shifts fires by an hour, not their count).
import { CronTime } from 'cron';

export interface Fires {
  /** Fires in the busiest window of that length starting within the next one (a month with five Sundays). */
  runs: number;
  /** The longest time between two fires (ms), looking one window further: how old its data can get. */
  maxGapMs: number;
  /** The most fires in one day. */
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

function offsetMs(timeZone: string | undefined, at: Date): number {
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

/** Fires of the minute starting at local time `t` (ms, already shifted into the zone). */
function firesInMinute(c: Parsed, all: { dom: boolean; dow: boolean; seconds: number }, t: number): number {
  const d = new Date(t);
  if (!c.month[d.getUTCMonth() + 1] || !c.hour[d.getUTCHours()] || !c.minute[d.getUTCMinutes()]) return 0;
  const dom = !!c.dayOfMonth[d.getUTCDate()];
  const dow = !!c.dayOfWeek[d.getUTCDay()];
  // Cron's rule: when both day fields are restricted, either may match.
  const day = all.dom ? dow : all.dow ? dom : dom || dow;
  return day ? all.seconds : 0;
}

export function firesOver(job: { schedule: string; timeZone?: string }, from: Date, windowMs: number): Fires {
  const c = new CronTime(job.schedule, job.timeZone) as unknown as Parsed;
  const size = (f: Field) => Object.keys(f).length;
  const all = { dom: size(c.dayOfMonth) === 31, dow: size(c.dayOfWeek) >= 7, seconds: size(c.second) };
  const offset = offsetMs(job.timeZone, from);
  const start = Math.ceil(from.getTime() / MINUTE_MS) * MINUTE_MS;
  const times: number[] = [];
  const counts: number[] = [];
  const perDay = new Map<number, number>();
  for (let t = start; t < start + 2 * windowMs; t += MINUTE_MS) {
    const n = firesInMinute(c, all, t + offset);
    if (n === 0) continue;
    times.push(t);
    counts.push(n);
    const day = Math.floor((t + offset) / DAY_MS);
    perDay.set(day, (perDay.get(day) ?? 0) + n);
  }
  let maxGapMs = 0;
  for (let i = 1; i < times.length; i++) maxGapMs = Math.max(maxGapMs, times[i] - times[i - 1]);
  // The busiest window: slide its start over the fires of the first window.
  let runs = 0;
  for (let i = 0, j = 0, inside = 0; i < times.length && times[i] < start + windowMs; inside -= counts[i], i++) {
    while (j < times.length && times[j] < times[i] + windowMs) inside += counts[j++];
    runs = Math.max(runs, inside);
  }
  return { runs, maxGapMs: maxGapMs || 2 * windowMs, runsPerDay: Math.max(0, ...perDay.values()) };
}
