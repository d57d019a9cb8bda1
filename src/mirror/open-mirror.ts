// A mirror opened from its configuration: the one place a run is put together. It owns the store (opened
// when first needed), and each run it makes has its settings, its preflight, a client whose requests pass
// the quota gate, and its report; the daemon is started from the same configuration alone.
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { createLogger } from '../logger.js';
import type { Store } from '../store/types.js';
import type { SyncSettings } from '../sync/context.js';
import { syncSettings } from '../sync/settings.js';
import type { BackfillRequest, BackfillRun } from './mirror-backfill.js';
import type { DaemonRequest, MirrorDaemon } from './mirror-daemon.js';
import { mirrorParts } from './mirror-parts.js';
import type { MirrorPlan, PlanRequest } from './mirror-plan.js';
import type { SyncReport, SyncRequest } from './mirror-sync.js';

export interface MirrorOptions {
  /** Where the mirror and its runs log (default: JSON lines on stderr at the configured level). */
  logger?: Logger;
}

export interface Mirror {
  readonly config: Readonly<Config>;
  readonly logger: Logger;
  /** The settings of a plain run, from the configuration (a run's own options go over them). */
  readonly settings: SyncSettings;
  /** The mirror's store, opened (made and migrated) at the first call, the same one after: read its views there. */
  store(): Promise<Store>;
  /** One run over the streams asked, checked first: what happened and why it stopped, or why it was refused. */
  sync(request?: SyncRequest): Promise<SyncReport>;
  /** What a run would request and how each period fits after it; nothing is sent, no mirror is made. */
  plan(request?: PlanRequest): Promise<MirrorPlan>;
  /** The monitoring views' run over their matches, filling the alerts the webhook receiver missed. */
  backfill(request?: BackfillRequest): Promise<BackfillRun>;
  /** The jobs, the receiver (when configured) and /healthz, /metrics, /status; null when `stopped` came during the start. */
  daemon(request?: DaemonRequest): Promise<MirrorDaemon | null>;
  /** Closes the store (a later call that needs it opens it again). */
  close(): Promise<void>;
}

export function openMirror(config: Readonly<Config>, options: MirrorOptions = {}): Mirror {
  const parts = mirrorParts(config, options.logger ?? createLogger(config.logLevel));
  // Each kind of run loads when first asked for: a sync never loads the daemon's HTTP servers and metrics.
  return {
    config,
    logger: parts.logger,
    settings: syncSettings(config),
    store: parts.store,
    sync: async (request) => (await import('./mirror-sync.js')).syncMirror(parts, request),
    plan: async (request) => (await import('./mirror-plan.js')).planMirror(parts, request),
    backfill: async (request) => (await import('./mirror-backfill.js')).backfillMirror(parts, request),
    daemon: async (request) => (await import('./mirror-daemon.js')).startMirrorDaemon(parts, request),
    close: parts.closeStore,
  };
}
