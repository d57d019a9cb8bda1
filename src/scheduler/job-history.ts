// Each job's last run and last success, from sync_runs: what a restarted daemon reports on /healthz
// until the job runs again.
import type { Store } from '../store/types.js';
import type { JobStatus } from './scheduler.js';

export type JobHistory = Pick<JobStatus, 'lastStartedAt' | 'lastFinishedAt' | 'lastOutcome' | 'lastSuccessAt' | 'lastRunId'>;

export async function jobHistory(store: Store, jobs: readonly string[]): Promise<Record<string, JobHistory>> {
  const history: Record<string, JobHistory> = {};
  for (const job of jobs) {
    const last = await store.lastJobRun(job);
    if (!last) continue;
    const success = await store.lastJobRun(job, ['success', 'partial']);
    history[job] = {
      lastStartedAt: last.startedAt,
      lastFinishedAt: last.finishedAt,
      lastOutcome: last.outcome as JobHistory['lastOutcome'],
      lastSuccessAt: success?.finishedAt ?? null,
      lastRunId: last.id,
    };
  }
  return history;
}
