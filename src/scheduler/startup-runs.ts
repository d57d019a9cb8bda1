// What the daemon runs as soon as it starts, so a new mirror begins filling at once instead of at the
// first cron tick (which may be a night away). By default only the jobs holding a stream that never
// completed a pass; `all` runs every enabled job once; `none` waits for the schedules. A run that would
// leave the rest of the month's schedule short is refused, as a plain sync is (unless --force).
import type { StreamDef } from '../catalog/types.js';
import type { Store } from '../store/types.js';
import type { ScheduledJob } from './configure-jobs.js';

export type StartupRun = 'never-synced' | 'all' | 'none';
export const STARTUP_RUNS: readonly StartupRun[] = ['never-synced', 'all', 'none'];

export interface StartupJob {
  job: string;
  /** Why it runs now: the streams never synced, or `every enabled job`; or why it was refused. */
  reason: string;
  state: 'queued' | 'running' | 'done' | 'refused';
}

/** One line when a run of these streams would leave the schedule short, else null (budget/run-fit.ts). */
export type StartupBudget = (what: string, streams: readonly StreamDef[], mode: ScheduledJob['mode']) => Promise<string | null>;

type Jobs = readonly { job: ScheduledJob; streams: readonly StreamDef[] }[];

export async function startupJobs(store: Store, jobs: Jobs, mode: StartupRun, budget?: StartupBudget): Promise<StartupJob[]> {
  const due = await dueJobs(store, jobs, mode);
  if (!budget) return due;
  for (const run of due) {
    const entry = jobs.find((j) => j.job.name === run.job)!;
    const refusal = await budget(`the start-up run of ${run.job}`, entry.streams, entry.job.mode);
    if (refusal) Object.assign(run, { state: 'refused', reason: refusal });
  }
  return due;
}

async function dueJobs(store: Store, jobs: Jobs, mode: StartupRun): Promise<StartupJob[]> {
  if (mode === 'none') return [];
  if (mode === 'all') return jobs.map(({ job }) => ({ job: job.name, reason: 'every enabled job runs once at start', state: 'queued' }));
  const names = [...new Set(jobs.flatMap((j) => j.streams.map((s) => s.name)))];
  const states = await Promise.all(names.map((name) => store.getState(name)));
  const synced = new Set(names.filter((_, i) => states[i]?.lastSuccessAt != null));
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
