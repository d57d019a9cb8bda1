// What a plain `sync` reads: each stream read the way its scheduled job reads it (stream-readings.ts),
// against the jobs as configured; and for --plan, the rest of each period after the run. Loaded only
// when a run is checked or planned (it reaches the scheduler's job files and cron).
import type { ScheduleEntry } from '../budget/projection.js';
import { usageOf } from '../budget/budget-report.js';
import { periodFits, type PeriodFit } from '../budget/period-fit.js';
import { projectSchedule } from '../budget/projection.js';
import type { Quotas } from '../budget/quotas.js';
import type { RunPlan } from '../budget/run-plan.js';
import { allStreams } from '../catalog/index.js';
import { streamReadings, type StreamReading } from '../budget/stream-readings.js';
import type { StreamDef } from '../catalog/types.js';
import type { Config } from '../config.js';
import { jobCatalog } from '../scheduler/job-files.js';
// The scheduler's files, not its index: a sync loads neither the scheduler's timers nor the receiver's
// totals that the index also offers (modules a bundled start would run for nothing).
import { checkedJobs, jobStreams, type ScheduledJob } from '../scheduler/configure-jobs.js';
import type { Store } from '../store/types.js';
import type { SyncSettings } from '../sync/context.js';

/** The enabled jobs with their streams; a job refused (a bad file, an unknown stream) is left out (`jobs` names it). */
export function configuredSchedule(config: Readonly<Config>): ScheduleEntry[] {
  return scheduleOf(configuredJobs(config));
}

const checked = new WeakMap<Readonly<Config>, ScheduledJob[]>();

/**
 * Every job of the configuration (the package's and the user's files, with the overrides), refused ones
 * left out. Once per configuration: checking a schedule asks the cron library for its next date (about
 * 5 ms a job), and a sync asks twice (its budget, then the jobs it records).
 */
export function configuredJobs(config: Readonly<Config>): ScheduledJob[] {
  let jobs = checked.get(config);
  if (!jobs) checked.set(config, (jobs = checkedJobs(jobCatalog(config.jobsDir).jobs, config.jobs, config.timezone).jobs));
  return jobs;
}

/** The enabled jobs with their streams, leaving out a job that names an unknown stream. */
export function scheduleOf(jobs: readonly ScheduledJob[]): ScheduleEntry[] {
  return jobs
    .filter((j) => j.enabled)
    .flatMap((job) => {
      try {
        return [{ job, streams: jobStreams(job) }];
      } catch {
        return [];
      }
    });
}

export interface SyncBudget {
  schedule: ScheduleEntry[];
  readings: StreamReading[];
}

export async function syncBudget(config: Readonly<Config>, store: Store, settings: SyncSettings, streams: readonly StreamDef[], at: Date) {
  const schedule = configuredSchedule(config);
  return { schedule, readings: await streamReadings(store, settings, streams, schedule, at) };
}

/** For --plan: the rest of each period after this run, per family the run uses. */
export async function periodAfter(
  store: Store,
  settings: SyncSettings,
  budget: SyncBudget,
  quotas: Quotas,
  plan: RunPlan,
  at: Date,
): Promise<PeriodFit[]> {
  const projection = await projectSchedule(store, settings, budget.schedule, quotas, at, allStreams());
  const run = Object.fromEntries(plan.families.map((f) => [f.family, f.requests]));
  return periodFits(projection, budget.schedule, await usageOf(store, quotas, at), at, run).filter((f) => f.run > 0);
}
