// Each job's last run and last success, from sync_runs: what a restarted daemon reports on /healthz
// until the job runs again.
import type { Store } from '../store/types.js';
import type { JobStatus } from './scheduler.js';

export type JobHistory = Pick<JobStatus, 'lastStartedAt' | 'lastFinishedAt' | 'lastOutcome' | 'lastSuccessAt' | 'lastRunId'>;

export async function jobHistory(store: Store, jobs: readonly string[]): Promise<Record<string, JobHistory>> {
  const history: Record<string, JobHistory> = {};
  for (const job of jobs) {
    const last = await store.db
      .selectFrom('sync_runs')
      .select(['id', 'started_at', 'finished_at', 'outcome'])
      .where('job', '=', job)
      .where('outcome', 'is not', null)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!last) continue;
    const success = await store.db
      .selectFrom('sync_runs')
      .select('finished_at')
      .where('job', '=', job)
      .where('outcome', 'in', ['success', 'partial'])
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    history[job] = {
      lastStartedAt: String(last.started_at),
      lastFinishedAt: last.finished_at === null ? null : String(last.finished_at),
      lastOutcome: last.outcome,
      lastSuccessAt: success?.finished_at ? String(success.finished_at) : null,
      lastRunId: Number(last.id),
    };
  }
  return history;
}
