// The library: a program that embeds ds-mirror reads its configuration as the command does, opens the
// mirror, and asks it for runs, plans, backfills and the daemon (README, "Use as a library"). What a run
// is made of (the engine, the client, the store's opening, the scheduler) stays inside.
export {
  openMirror,
  type BackfillRequest,
  type BackfillRun,
  type DaemonHealth,
  type DaemonRequest,
  type Mirror,
  type MirrorDaemon,
  type MirrorOptions,
  type MirrorPlan,
  type PlanRequest,
  type Refusal,
  type SyncRefused,
  type SyncReport,
  type SyncRequest,
  type SyncRun,
  type ViewMatchCounts,
} from './mirror/index.js';
export { loadConfig, type Config, type ConfigFlags, type FileConfig } from './config.js';
export { ConfigError, DsMirrorError } from './errors.js';
export { allStreams, type StreamDef } from './catalog/index.js';
export type { Store, StreamRunStats } from './store/types.js';
