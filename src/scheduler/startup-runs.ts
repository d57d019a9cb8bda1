// What the daemon runs as soon as it starts, so a new mirror begins filling at once instead of at the
// first cron tick (which may be a night away). By default only the jobs holding a stream that never
// completed a pass; `all` runs every enabled job once; `none` waits for the schedules.
import type { StreamDef } from '../catalog/types.js';
import type { Store } from '../store/types.js';
import type { ScheduledJob } from './configure-jobs.js';

export type StartupRun = 'never-synced' | 'all' | 'none';
export const STARTUP_RUNS: readonly StartupRun[] = ['never-synced', 'all', 'none'];

export interface StartupJob {
  job: string;
  /** Why it runs now: the streams never synced, or `every enabled job`. */
  reason: string;
  state: 'queued' | 'running' | 'done';
}

export async function startupJobs(
  store: Store,
  jobs: readonly { job: ScheduledJob; streams: readonly StreamDef[] }[],
  mode: StartupRun,
): Promise<StartupJob[]> {
  if (mode === 'none') return [];
  if (mode === 'all') return jobs.map(({ job }) => ({ job: job.name, reason: 'every enabled job runs once at start', state: 'queued' }));
  const names = [...new Set(jobs.flatMap((j) => j.streams.map((s) => s.name)))];
  const synced = new Set(
    names.length === 0
      ? []
      : (
          (await store.db
            .selectFrom('stream_state')
            .select('stream')
            .where('stream', 'in', names)
            .where('last_success_at', 'is not', null)
            .execute()) as { stream: string }[]
        ).map((r) => r.stream),
  );
  const claimed = new Set<string>();
  const due: StartupJob[] = [];
  for (const { job, streams } of jobs) {
    // A stream two jobs share is filled by the first; the second runs only for streams left over.
    const never = streams.map((s) => s.name).filter((s) => !synced.has(s) && !claimed.has(s));
    if (never.length === 0) continue;
    for (const s of never) claimed.add(s);
    due.push({ job: job.name, reason: `never synced: ${never.join(', ')}`, state: 'queued' });
  }
  return due;
}
