// The jobs as configured: the job files (jobs/ and the user's jobsDir) with the config file's schedule and enabled overrides,
// checked once at startup so a typo is one clear line, not a job that silently never runs.
import { CronTime } from 'cron';
import { firesEver, isUtcZone } from '../budget/schedule-fires.js';
import { resolveStreams } from '../catalog/index.js';
import type { StreamDef } from '../catalog/types.js';
import { ConfigError } from '../errors.js';
import type { JobDef, RefusedJob } from './job-def.js';

export interface JobOverride {
  schedule?: string;
  enabled?: boolean;
}

export interface ScheduledJob extends JobDef {
  enabled: boolean;
  /** IANA time zone of the schedule; undefined = the machine's local time. */
  timeZone: string | undefined;
}

/** The jobs with the config's overrides; the first schedule that is not cron, or never fires, stops it in one line. */
export function configureJobs(
  defaults: readonly JobDef[],
  overrides: Readonly<Record<string, JobOverride>> = {},
  timeZone?: string,
): ScheduledJob[] {
  const jobs = withOverrides(defaults, overrides, timeZone);
  for (const { job, fromConfig } of jobs) {
    const problem = scheduleProblem(job, fromConfig);
    if (problem) throw new ConfigError(problem);
  }
  return jobs.map((j) => j.job);
}

/**
 * The jobs the daemon can run, and the enabled ones it refuses (a schedule that is not cron or never fires,
 * an unknown stream), each with a line naming its file (or config key) and field: the others still run.
 */
export function checkedJobs(
  defaults: readonly JobDef[],
  overrides: Readonly<Record<string, JobOverride>> = {},
  timeZone?: string,
): { jobs: ScheduledJob[]; refused: RefusedJob[] } {
  const jobs: ScheduledJob[] = [];
  const refused: RefusedJob[] = [];
  for (const { job, fromConfig } of withOverrides(defaults, overrides, timeZone)) {
    const problem = job.enabled ? (scheduleProblem(job, fromConfig) ?? streamsProblem(job)) : null;
    if (problem) refused.push({ name: job.name, problem });
    else jobs.push(job);
  }
  return { jobs, refused };
}

/** A job's streams, or one line that names the job (its file) and the stream it does not know. */
export function jobStreams(job: ScheduledJob): StreamDef[] {
  const problem = streamsProblem(job);
  if (problem) throw new ConfigError(problem);
  return resolveStreams(job.streams);
}

function withOverrides(
  defaults: readonly JobDef[],
  overrides: Readonly<Record<string, JobOverride>>,
  timeZone: string | undefined,
): { job: ScheduledJob; fromConfig: boolean }[] {
  if (timeZone !== undefined) checkTimeZone(timeZone);
  const known = new Set(defaults.map((j) => j.name));
  for (const name of Object.keys(overrides)) {
    if (!known.has(name)) throw new ConfigError(`jobs.${name}: no such job; the jobs are ${[...known].join(', ')}`);
  }
  return defaults.map((def) => {
    const override = overrides[def.name] ?? {};
    if (def.timeZone !== undefined) checkTimeZone(def.timeZone);
    const job = {
      ...def,
      schedule: override.schedule ?? def.schedule,
      enabled: override.enabled ?? def.enabled ?? true,
      timeZone: def.timeZone ?? timeZone,
    };
    return { job, fromConfig: override.schedule !== undefined };
  });
}

/** Why a job's schedule cannot run it: not cron, or no date it fires on (30 February); null when it can. */
function scheduleProblem(job: ScheduledJob, fromConfig: boolean): string | null {
  const where = fromConfig || !job.file ? `jobs.${job.name}.schedule` : `${job.file}: schedule`;
  let fires: boolean;
  try {
    fires = firesEver(job); // parsed once, for the budget's counts too
  } catch (error) {
    return (
      `${where} "${job.schedule}" is not a cron expression (${error instanceof Error ? error.message : 'invalid'}); ` +
      'use 5 fields (minute hour day-of-month month day-of-week) or 6 with seconds first'
    );
  }
  return fires ? null : `${where} "${job.schedule}" never fires (no such date in the next 8 years, as 30 February); fix the day and month`;
}

function streamsProblem(job: ScheduledJob): string | null {
  try {
    resolveStreams(job.streams);
    return null;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    const where = job.file ? `${job.file}: streams: ` : '';
    return `${where}job ${job.name}: ${err.message} (disable it with jobs.${job.name}.enabled = false)`;
  }
}

/** The next `count` times a job fires after `from`, in its time zone. */
export function nextRuns(job: Pick<ScheduledJob, 'schedule' | 'timeZone'>, count: number, from: Date = new Date()): Date[] {
  const time = new CronTime(job.schedule, job.timeZone);
  const runs: Date[] = [];
  let after = from;
  for (let i = 0; i < count; i++) {
    after = time.getNextDateFrom(after, job.timeZone).toJSDate();
    runs.push(after);
  }
  return runs;
}

function checkTimeZone(timeZone: string): void {
  if (isUtcZone(timeZone)) return; // valid by name: asking the cron library would load ICU's zone data (isUtcZone)
  try {
    new CronTime('0 0 * * *', timeZone);
  } catch {
    throw new ConfigError(`timezone "${timeZone}" is not an IANA time zone (e.g. UTC, Europe/Paris, America/New_York)`);
  }
}
