// Before a run, whoever asks for it (`sync`, the daemon's start, its start-up runs): can the service be
// reached at all (one connection, no request), does the mirror hold this service (or switch to it under
// --force), the jobs as configured recorded (v_jobs, v_streams), and may the run start, or would it leave
// the rest of the period's schedule short. The scheduled runs are the schedule itself: they are not
// refused, and the quota gate stops each at a quota.
import type { Logger } from 'pino';
import { planQuotas } from '../budget/plan-quotas.js';
import { runFitter } from '../budget/run-fit.js';
import type { StreamDef } from '../catalog/types.js';
import { requireService, type Config } from '../config.js';
import { recordJobs } from '../scheduler/record-jobs.js';
import type { Store } from '../store/types.js';
import type { SyncSettings } from '../sync/context.js';
import { checkService } from '../sync/mirrored-service.js';
import { unreachedFamilies } from './reach-service.js';
import { configuredJobs, scheduleOf } from './sync-budget.js';

/** A run refused before its first request, with the lines that say why. */
export interface Refusal {
  /** `unreachable`: the service does not answer (a line per API family); `schedule`: the run would leave it short. */
  why: 'unreachable' | 'schedule';
  lines: string[];
}

/** Whether a run of these streams may start: the one line refusing it, or null. */
export type RunCheck = (what: string, streams: readonly StreamDef[], mode: SyncSettings['mode']) => Promise<string | null>;

export interface Preflight {
  /** The service's reach, for these streams' families: a refusal when it does not answer. */
  reach(streams: readonly StreamDef[]): Promise<Refusal | null>;
  /** The mirror holds this service (or switches, under `force`); the jobs as configured are recorded. */
  admit(store: Store, at: Date): Promise<void>;
  /**
   * The check of runs against the schedule on this store, each counted with those it let pass before
   * (the daemon's start-up runs together); undefined under `force`, which refuses none.
   */
  runs(store: Store, settings: SyncSettings, at?: () => Date): RunCheck | undefined;
}

export interface PreflightOptions {
  config: Readonly<Config>;
  logger: Logger;
  /** The operator's word: a mirror of another service is switched, and no run is refused for the schedule. */
  force?: boolean;
}

export function preflight({ config, logger, force }: PreflightOptions): Preflight {
  const { baseUrl } = requireService(config);
  return {
    reach: async (streams) => {
      const lines = await unreachedFamilies(baseUrl, streams);
      return lines.length > 0 ? { why: 'unreachable', lines } : null;
    },
    admit: async (store, at) => {
      await checkService(store, baseUrl, force);
      await recordJobs(store, configuredJobs(config), at).catch((err: unknown) => {
        logger.warn(
          { err: err instanceof Error ? err.message : String(err) },
          'the jobs could not be recorded in the store (v_jobs, v_streams)',
        );
      });
    },
    runs: (store, settings, at) => {
      if (force) return undefined;
      const input = { store, settings, schedule: scheduleOf(configuredJobs(config)), quotas: planQuotas(config.limits) };
      return runFitter(input, at);
    },
  };
}
