// One run over the streams asked, put together as every run is: the preflight (the service's reach, the
// service the mirror holds, the jobs recorded, the schedule's refusal), a client whose requests pass the
// quota gate, the run, and the usage ledger settled. It returns what happened and why it stopped, for
// whoever reports it (the CLI's table and lines, a program's own).
import { quotaGate } from '../budget/quota-gate.js';
import { resolveStreams } from '../catalog/index.js';
import { KeyRefusedError } from '../client/index.js';
import { requireService } from '../config.js';
import { describeStoreError } from '../store/storage-errors.js';
import type { Store } from '../store/types.js';
import type { Progress } from '../sync/context.js';
import { runSync, type RunResult } from '../sync/engine.js';
import { syncSettings } from '../sync/settings.js';
import { configuredClient, mirrorExists } from './configured.js';
import type { MirrorParts } from './mirror-parts.js';
import type { PlanRequest } from './mirror-plan.js';
import { preflight, type Refusal } from './preflight.js';
import { runEstimates } from './progress-estimates.js';
import { syncBudget } from './sync-budget.js';

export interface SyncRequest extends PlanRequest {
  /** Stop cleanly at a checkpoint after this many HTTP requests. */
  maxRequests?: number;
  /** Sync though the mirror holds another service (it then records this one), or though the run would leave the schedule short. */
  force?: boolean;
  /** Aborted: the pages in flight commit, the run ends at its checkpoints. */
  signal?: AbortSignal;
  /** Where the run reports its streams, made once the run's estimates (rows a stream is expected to fetch) are known. */
  progress?: (estimates: ReadonlyMap<string, number>) => Progress;
}

/** A run that was made: its streams, and what the service and the ledger said. */
export interface SyncRun extends RunResult {
  refused: null;
  /** HTTP requests sent, and how many of them were retries. */
  requests: number;
  retries: number;
  /** Each quota spent during the run, in one line with its renewal (its streams stopped at their checkpoints). */
  quotasSpent: string[];
  /** Each API key the service refused during the run, in one line. */
  keysRefused: string[];
  /** The run stopped because it reached its `maxRequests`. */
  maxRequestsReached: boolean;
  /** Every stream asked was left to other workers that hold it (their names): nothing was synced. */
  heldElsewhere: string[] | null;
}

/** A run refused before its first request. */
export interface SyncRefused {
  refused: Refusal;
}

export type SyncReport = SyncRun | SyncRefused;

export async function syncMirror(mirror: MirrorParts, request: SyncRequest = {}): Promise<SyncReport> {
  const { config, logger } = mirror;
  const asked = resolveStreams(request.streams ?? []);
  const settings = syncSettings(config, request);
  const check = preflight({ config, logger, force: request.force });
  // Before a new mirror is made, a wrong address is said: a run that can reach nothing makes no file. An
  // existing mirror is first asked whether it holds this service (the more useful line when it does not).
  const reached = !mirror.isOpen() && !mirrorExists(config);
  const unreached = reached ? await check.reach(asked) : null;
  if (unreached) return { refused: unreached };
  const store = await mirror.store();
  const at = new Date();
  const streams = (await syncBudget(config, store, settings, asked, at)).readings.map((r) => r.reads);
  await check.admit(store, at);
  const refusal = await check.runs(store, settings, () => at)?.('this run', streams, settings.mode);
  if (refusal) return { refused: { why: 'schedule', lines: [refusal] } };
  const late = reached ? null : await check.reach(streams);
  if (late) return { refused: late };
  const estimates = await runEstimates(
    store,
    streams.map((d) => d.name),
    settings.mode,
    requireService(config).baseUrl,
  );
  return runOn(store, mirror, { ...request, progress: request.progress?.(estimates) }, { settings, streams });
}

/** The run itself on the open store: its client, the run, the ledger settled (a write of the run too). */
export async function runOn(
  store: Store,
  { config, logger }: MirrorParts,
  request: Omit<SyncRequest, 'progress'> & { progress?: Progress },
  run: Pick<Parameters<typeof runSync>[0], 'settings' | 'streams'>,
): Promise<SyncRun> {
  const gate = quotaGate(store, config.limits);
  const client = configuredClient(config, logger, { gate, maxRequests: request.maxRequests });
  let settleFailure: string | null = null;
  let result: RunResult;
  try {
    result = await runSync({
      client,
      store,
      logger,
      ...run,
      signal: request.signal,
      progress: request.progress,
      switchService: request.force,
    });
  } finally {
    // Closing the client settles the usage ledger (the reservations not sent go back).
    await client.close().catch((err: unknown) => {
      settleFailure = `the usage ledger could not be settled: ${describeStoreError(err, store.location)}`;
    });
  }
  const { stats } = client;
  const error = result.error ?? settleFailure ?? undefined;
  return {
    ...result,
    error,
    refused: null,
    requests: stats.requests,
    retries: stats.retries,
    quotasSpent: [...gate.refused.values()].map((q) => q.message),
    keysRefused: [...stats.stopped.values()].filter((e) => e instanceof KeyRefusedError).map((e) => e.message),
    maxRequestsReached: request.maxRequests !== undefined && stats.requests >= request.maxRequests,
    heldElsewhere: heldElsewhere({ ...result, error }),
  };
}

/** When every stream was skipped because another worker holds it: those workers, else null. */
function heldElsewhere(result: RunResult): string[] | null {
  const skipped = result.streams.filter((s) => s.outcome === 'skipped');
  if (skipped.length === 0 || skipped.length < result.streams.length || result.error) return null;
  // The lease's error says `... by another worker (<owner>, lease until <time>); skipped`.
  return [...new Set(skipped.map((s) => / \(([^,)]+)[^)]*\); skipped$/.exec(s.error ?? '')?.[1] ?? 'unknown'))];
}
