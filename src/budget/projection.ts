// What a schedule costs and buys: each enabled job's runs in a calendar month (the busier of this one and
// the next, UTC, as the quotas count them) times what one run costs
// (from the mirror's sizes, or the published real sizes where the mirror is empty), per quota family,
// against the plan's quotas; and for each stream, how old its data can get between two runs.
import type { StreamDef } from '../catalog/types.js';
import type { Store } from '../store/types.js';
import type { SyncSettings } from '../requests/run-settings.js';
import { runCost, type StreamCost } from './cost-model.js';
import { QUOTA_FAMILIES, type QuotaFamily, type Quotas } from './quotas.js';
import { firesOver } from './schedule-fires.js';
import { count } from '../figures.js';

export interface JobProjection {
  job: string;
  schedule: string;
  runsPerMonth: number;
  /** Most runs in one day, and the shortest time between runs. */
  runsPerDay: number;
  everyMs: number;
  perRun: StreamCost[];
  perMonth: Record<QuotaFamily, number>;
}

export interface Freshness {
  stream: string;
  /** How old the stream's data can get (the longest gap between runs of the jobs that cover it); null: not scheduled. */
  maxAgeMs: number | null;
  jobs: string[];
}

export interface Projection {
  jobs: JobProjection[];
  perMonth: Record<QuotaFamily, number>;
  perDay: Record<QuotaFamily, number>;
  freshness: Freshness[];
  /** Some size came from the published real sizes. */
  estimated: boolean;
  /** One line each: a quota the schedule does not fit, with the jobs that overrun it. */
  problems: string[];
}

/** A job as the projection needs it (the scheduler's ScheduledJob fits). */
export interface ScheduleEntry {
  job: { name: string; schedule: string; timeZone?: string; mode: 'full' | 'incremental' };
  streams: readonly StreamDef[];
}

const zero = (): Record<QuotaFamily, number> => Object.fromEntries(QUOTA_FAMILIES.map((f) => [f, 0])) as Record<QuotaFamily, number>;

export async function projectSchedule(
  store: Store,
  settings: SyncSettings,
  schedule: readonly ScheduleEntry[],
  quotas: Quotas,
  from: Date,
  catalog: readonly StreamDef[],
): Promise<Projection> {
  const jobs: JobProjection[] = [];
  const perMonth = zero();
  const perDay = zero();
  let estimated = false;
  const gaps = new Map<string, { maxAgeMs: number; jobs: string[] }>();
  for (const { job, streams } of schedule) {
    const fires = firesOver(job, from);
    const everyDays = fires.maxGapMs / 86_400_000;
    const jobSettings: SyncSettings = { ...settings, mode: job.mode };
    const perRun = await Promise.all(streams.map((s) => runCost(store, jobSettings, s, Math.min(everyDays, 31))));
    const month = zero();
    for (const cost of perRun) {
      month[cost.family] += cost.requests * fires.runs;
      perDay[cost.family] += cost.requests * fires.runsPerDay;
      estimated ||= cost.estimated;
    }
    for (const f of QUOTA_FAMILIES) perMonth[f] += month[f];
    jobs.push({
      job: job.name,
      schedule: job.schedule,
      runsPerMonth: fires.runs,
      runsPerDay: fires.runsPerDay,
      everyMs: fires.maxGapMs,
      perRun,
      perMonth: month,
    });
    for (const s of streams) {
      const known = gaps.get(s.name);
      if (!known || fires.maxGapMs < known.maxAgeMs)
        gaps.set(s.name, { maxAgeMs: fires.maxGapMs, jobs: [...(known?.jobs ?? []), job.name] });
      else known.jobs.push(job.name);
    }
  }
  const freshness = catalog.map((s) => ({
    stream: s.name,
    maxAgeMs: gaps.get(s.name)?.maxAgeMs ?? null,
    jobs: gaps.get(s.name)?.jobs ?? [],
  }));
  return { jobs, perMonth, perDay, freshness, estimated, problems: problemsOf(jobs, perMonth, perDay, quotas) };
}

function problemsOf(
  jobs: readonly JobProjection[],
  perMonth: Record<QuotaFamily, number>,
  perDay: Record<QuotaFamily, number>,
  quotas: Quotas,
): string[] {
  const problems: string[] = [];
  const heaviest = (f: QuotaFamily, of: (j: JobProjection) => number) =>
    jobs
      .filter((j) => of(j) > 0)
      .sort((a, b) => of(b) - of(a))
      .map((j) => `${j.job} ${count(of(j))}`)
      .join(', ');
  for (const f of QUOTA_FAMILIES) {
    const q = quotas[f];
    if (q.perMonth !== undefined && perMonth[f] > q.perMonth) {
      problems.push(
        `the schedule needs about ${count(perMonth[f])} ${f} requests a month, over the quota of ${count(q.perMonth)}: ${heaviest(f, (j) => j.perMonth[f])}`,
      );
    }
    if (q.perDay !== undefined && perDay[f] > q.perDay) {
      problems.push(
        `the schedule needs up to ${count(perDay[f])} ${f} requests a day, over the quota of ${count(q.perDay)}: ${heaviest(f, (j) => (j.perMonth[f] / Math.max(1, j.runsPerMonth)) * j.runsPerDay)}`,
      );
    }
    if (q.perMinute !== undefined) {
      for (const j of jobs) {
        const requests = j.perRun.filter((c) => c.family === f).reduce((n, c) => n + c.requests, 0);
        const minutes = requests / q.perMinute;
        if (minutes * 60_000 > j.everyMs) {
          problems.push(
            `job ${j.job}: a run needs about ${count(requests)} ${f} requests, ${minutes.toFixed(1)} minutes at ${count(q.perMinute)} a minute, but it runs every ${(j.everyMs / 60_000).toFixed(0)} minutes`,
          );
        }
      }
    }
  }
  return problems;
}
