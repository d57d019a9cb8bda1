// The mirror's run: one place that puts a run together (the store, the quota gate, the client, the
// settings, the checks before it) for a sync, a plan, the daemon's start-up runs and its scheduled jobs.
export { openMirror, type Mirror, type MirrorOptions } from './open-mirror.js';
export type { SyncRefused, SyncReport, SyncRequest, SyncRun } from './mirror-sync.js';
export type { MirrorPlan, PlanRequest } from './mirror-plan.js';
export type { BackfillRequest, BackfillRun, ViewMatchCounts } from './mirror-backfill.js';
export type { DaemonRequest, MirrorDaemon } from './mirror-daemon.js';
export type { Refusal } from './preflight.js';
// The daemon's own start (src/mirror/daemon.ts) is not passed on: it loads the HTTP servers and metrics.
export type { Daemon, DaemonHealth, DaemonOptions } from './daemon.js';
