// The jobs in the store: each job as configured (the job files and the config file's overrides), the
// interval its cron schedule means, and per stream the enabled jobs that keep it, so v_jobs and v_streams
// answer "which job keeps this table, how often, and is it stale" in SQL. SQL cannot read cron, so the
// interval is computed here: the longest gap between two fires over the coming months.
import type { Kysely } from 'kysely';
import { firesOver } from '../budget/schedule-fires.js';
import { resolveStreams } from '../catalog/index.js';
import type { SchedulerTables } from './scheduler-tables.js';
import type { Store } from '../store/types.js';
import type { ScheduledJob } from './configure-jobs.js';

/** How late a run may be before its streams are stale: a tenth of the interval, at least ten minutes. */
export function staleAfterSeconds(intervalSeconds: number): number {
  return intervalSeconds + Math.max(600, Math.round(intervalSeconds / 10));
}

interface Keeper {
  jobs: string[];
  schedules: string[];
  interval: number;
}

/** Replaces the recorded jobs with `jobs` (all of them: the disabled ones are recorded as such), at `at`. */
export async function recordJobs(store: Store, jobs: readonly ScheduledJob[], at: Date): Promise<void> {
  const recordedAt = at.toISOString();
  const keepers = new Map<string, Keeper>();
  const rows = jobs.map((job) => {
    const interval = Math.round(firesOver(job, at).maxGapMs / 1000);
    if (job.enabled) for (const stream of streamsOf(job)) keep(keepers, stream, job, interval);
    return {
      job: job.name,
      description: job.description,
      schedule: job.schedule,
      time_zone: job.timeZone ?? null,
      mode: job.mode,
      enabled: store.adapter.toDb(job.enabled) as number,
      streams: JSON.stringify(job.streams),
      interval_seconds: interval,
      stale_after_seconds: staleAfterSeconds(interval),
      recorded_at: recordedAt,
    };
  });
  const kept = [...keepers].map(([stream, k]) => ({
    stream,
    jobs: k.jobs.join(', '),
    schedules: k.schedules.join(', '),
    interval_seconds: k.interval,
    stale_after_seconds: staleAfterSeconds(k.interval),
    recorded_at: recordedAt,
  }));
  await (store.db as Kysely<SchedulerTables>).transaction().execute(async (trx) => {
    await trx.deleteFrom('scheduled_jobs').execute();
    await trx.deleteFrom('stream_schedules').execute();
    if (rows.length > 0) await trx.insertInto('scheduled_jobs').values(rows).execute();
    if (kept.length > 0) await trx.insertInto('stream_schedules').values(kept).execute();
  });
}

/** The catalog streams a job runs; none when it names one the catalog does not know (the daemon refuses it). */
function streamsOf(job: ScheduledJob): string[] {
  try {
    return resolveStreams(job.streams).map((s) => s.name);
  } catch {
    return [];
  }
}

function keep(keepers: Map<string, Keeper>, stream: string, job: ScheduledJob, interval: number): void {
  const k = keepers.get(stream) ?? { jobs: [], schedules: [], interval };
  k.jobs.push(job.name);
  k.schedules.push(job.schedule);
  k.interval = Math.min(k.interval, interval);
  keepers.set(stream, k);
}
