// The quotas check `jobs` and the daemon's start share with `budget`: the configured schedule's
// projected use, one line per quota it does not fit.
import { planQuotas, projectSchedule } from '../budget/index.js';
import { allStreams } from '../catalog/index.js';
import type { Config } from '../config.js';
import { jobStreams, type ScheduledJob } from '../scheduler/index.js';
import type { Store } from '../store/types.js';
import { syncSettings } from '../sync/settings.js';

export async function scheduleProblems(
  store: Store,
  config: Config,
  jobs: readonly ScheduledJob[],
  at: Date = new Date(),
): Promise<string[]> {
  const schedule = jobs.filter((j) => j.enabled).map((job) => ({ job, streams: jobStreams(job) }));
  const projection = await projectSchedule(store, syncSettings(config), schedule, planQuotas(config.limits), at, allStreams());
  return projection.problems;
}
