// `ds-mirror status --html <file>`: the daemon's status page, written to a file for a mirror that runs
// no daemon. The jobs come from the configuration, their last runs from sync_runs.
import { renameSync, writeFileSync } from 'node:fs';
import { planQuotas } from '../budget/index.js';
import type { Config } from '../config.js';
import { fileProblem } from '../config.js';
import { ConfigError } from '../errors.js';
import { statusPage, type JobLine } from '../observability/status-page/status-page.js';
import { configureJobs, idleJobStatus, jobDefinitions, jobHistory, jobStreams, nextRuns } from '../scheduler/index.js';
import type { Store } from '../store/types.js';
import { syncSettings } from '../sync/index.js';

export async function writeStatusHtml(store: Store, config: Readonly<Config>, file: string, now: Date): Promise<void> {
  const jobs = configureJobs(jobDefinitions(config.jobsDir), config.jobs, config.timezone);
  const schedule = jobs.filter((j) => j.enabled).map((job) => ({ job, streams: jobStreams(job) }));
  const history = await jobHistory(
    store,
    jobs.map((j) => j.name),
  );
  const lines: JobLine[] = jobs.map((job) => ({
    ...idleJobStatus(job, job.streams),
    ...history[job.name],
    enabled: job.enabled,
    nextRunAt: job.enabled ? nextRuns(job, 1, now)[0]!.toISOString() : null,
  }));
  const page = await statusPage(store, {
    settings: syncSettings(config),
    quotas: planQuotas(config.limits),
    schedule,
    jobs: lines,
    now,
    source: 'file',
  });
  // Written beside and renamed over, so a browser or a web server never reads half a page.
  const partial = `${file}.partial`;
  try {
    writeFileSync(partial, page);
    renameSync(partial, file);
  } catch (error) {
    throw new ConfigError(`cannot write the status page to ${file}: ${fileProblem(error)}`);
  }
}
