// The jobs as configured: the job files (jobs/ and the user's jobsDir) with the config file's schedule and enabled overrides,
// checked once at startup so a typo is one clear line, not a job that silently never runs.
import { CronTime, validateCronExpression } from 'cron';
import { ConfigError } from '../errors.js';
import type { JobDef } from './job-def.js';

export interface JobOverride {
  schedule?: string;
  enabled?: boolean;
}

export interface ScheduledJob extends JobDef {
  enabled: boolean;
  /** IANA time zone of the schedule; undefined = the machine's local time. */
  timeZone: string | undefined;
}

export function configureJobs(
  defaults: readonly JobDef[],
  overrides: Readonly<Record<string, JobOverride>> = {},
  timeZone?: string,
): ScheduledJob[] {
  if (timeZone !== undefined) checkTimeZone(timeZone);
  const known = new Set(defaults.map((j) => j.name));
  for (const name of Object.keys(overrides)) {
    if (!known.has(name)) throw new ConfigError(`jobs.${name}: no such job; the jobs are ${[...known].join(', ')}`);
  }
  return defaults.map((def) => {
    const override = overrides[def.name] ?? {};
    const schedule = override.schedule ?? def.schedule;
    const check = validateCronExpression(schedule);
    if (!check.valid) {
      throw new ConfigError(
        `jobs.${def.name}.schedule "${schedule}" is not a cron expression (${check.error?.message ?? 'invalid'}); ` +
          'use 5 fields (minute hour day-of-month month day-of-week) or 6 with seconds first',
      );
    }
    if (def.timeZone !== undefined) checkTimeZone(def.timeZone);
    return { ...def, schedule, enabled: override.enabled ?? def.enabled ?? true, timeZone: def.timeZone ?? timeZone };
  });
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
  try {
    new CronTime('0 0 * * *', timeZone);
  } catch {
    throw new ConfigError(`timezone "${timeZone}" is not an IANA time zone (e.g. UTC, Europe/Paris, America/New_York)`);
  }
}
