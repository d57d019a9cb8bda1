// The mirror's run: one place that puts a run together (the store, the quota gate, the client, the
// settings, the checks before it) for a sync, the daemon's start-up runs and its scheduled jobs.
export { startDaemon, type Daemon, type DaemonHealth, type DaemonOptions } from './daemon.js';
