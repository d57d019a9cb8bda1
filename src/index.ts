// The library: what a program embedding ds-mirror needs to mirror, receive and schedule without the
// command line. The CLI (`bin/ds-mirror.js`) is built from the same pieces.
export { main, EXIT, type CliIo } from './cli/main.js';
export { loadConfig, requireService, type Config, type ConfigFlags, type FileConfig } from './config.js';
export { ConfigError, DsMirrorError, errorAction, RetriableError, SkipError, StopError, type ErrorAction } from './errors.js';
export { createLogger } from './logger.js';
export { allStreams, resolveStreams, type StreamDef } from './catalog/index.js';
export { createClient, type ApiClient, type ClientOptions } from './client/index.js';
export { openStore, parseStoreUrl, redactUrl, type Migrations, type OpenStoreOptions, type StoreLocation } from './store/index.js';
export { MIRROR_SCHEMA } from './mirror-schema/index.js';
export type { Store, StreamRunStats } from './store/types.js';
export { runSync, type RunOptions, type RunResult } from './sync/engine.js';
export { syncSettings, type SettingsFlags } from './sync/settings.js';
export type { Progress, SyncSettings } from './sync/context.js';
export { startReceiver, loadSecrets, type Receiver, type ReceiverOptions } from './receiver/index.js';
export { configureJobs, type JobDef } from './scheduler/index.js';
export { startDaemon, type Daemon, type DaemonOptions } from './mirror/index.js';
export { defaultJobs } from './scheduler/job-files.js';
