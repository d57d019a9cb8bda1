// Public surface of the scheduler: job definitions and their configuration, when they run, and the
// database totals that `status` and /metrics share.
export type { JobDef, RefusedJob } from './job-def.js';
export { checkedJobs, configureJobs, jobStreams, nextRuns, type JobOverride, type ScheduledJob } from './configure-jobs.js';
export { defaultJobs, jobCatalog, jobDefinitions } from './job-files.js';
export { jobHistory } from './job-history.js';
export {
  idleJobStatus,
  startScheduler,
  type JobFinished,
  type JobStatus,
  type RunJob,
  type Scheduler,
  type SchedulerOptions,
} from './scheduler.js';
export { readMirrorStats, type DeliveryTotals, type MirrorStats, type StreamTotals } from '../observability/mirror-stats.js';
export { STARTUP_RUNS, startupJobs, type StartupJob, type StartupRun } from './startup-runs.js';
