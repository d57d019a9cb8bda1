// A sync run: every chosen stream under its own lease (two workers never interleave one stream), lists
// first and in parallel, then fan-outs (their parents are fresh by then). Each stream's outcome and
// counts are recorded in sync_runs; a failing stream does not stop the others.
import type { Logger } from 'pino';
import type { ApiClient } from '../client/index.js';
import type { StreamDef } from '../catalog/types.js';
import { isStopError } from '../budget/quota-error.js';
import { pruneHistory } from '../history/prune-history.js';
import type { Store, StreamRunStats } from '../store/types.js';
import { emptyStats, silentProgress, type Progress, type StreamContext, type SyncSettings } from './context.js';
import { syncFanout } from './fanout-stream.js';
import { syncList } from './list-stream.js';
import { acquireStreamLease, LEASE_TTL_MS, leaseOwner } from './stream-lease.js';


export interface RunOptions {
  client: ApiClient;
  store: Store;
  logger: Logger;
  settings: SyncSettings;
  streams: readonly StreamDef[];
  progress?: Progress;
  signal?: AbortSignal;
  /** Who holds the leases: defaults to host:pid:random. */
  owner?: string;
  /** The scheduled job running this, recorded with the run. */
  job?: string;
}

export interface RunResult {
  runId: number;
  outcome: StreamRunStats['outcome'];
  streams: StreamRunStats[];
}

const SEVERITY: StreamRunStats['outcome'][] = ['success', 'partial', 'skipped', 'stopped', 'failed'];

export async function runSync(opts: RunOptions): Promise<RunResult> {
  const { store } = opts;
  const now = () => new Date().toISOString();
  const owner = opts.owner ?? leaseOwner();
  const signal = opts.signal ?? new AbortController().signal;
  const runId = await store.startRun(opts.streams.map((s) => s.name), opts.settings.mode, now(), opts.job);
  const run = (def: StreamDef) => runStream(opts, def, { runId, owner, signal, now });

  const results = await Promise.all(opts.streams.filter((s) => s.kind !== 'fanout').map(run));
  results.push(...(await Promise.all(opts.streams.filter((s) => s.kind === 'fanout').map(run))));
  const outcome = results.reduce<StreamRunStats['outcome']>(
    (worst, s) => (SEVERITY.indexOf(s.outcome) > SEVERITY.indexOf(worst) ? s.outcome : worst),
    'success',
  );
  await store.finishRun(runId, outcome, now());
  await pruneHistory(store.db, new Date());
  return { runId, outcome, streams: results };
}

async function runStream(
  opts: RunOptions,
  def: StreamDef,
  run: { runId: number; owner: string; signal: AbortSignal; now: () => string },
): Promise<StreamRunStats> {
  const { store, logger } = opts;
  const progress = opts.progress ?? silentProgress;
  const stats = emptyStats(def.name);
  const started = Date.now();
  const lease = await acquireStreamLease(store, def.name, run.owner);
  if ('heldBy' in lease) {
    stats.outcome = 'skipped';
    stats.error = `stream ${def.name} is being synced by another worker (${lease.heldBy}); skipped`;
    logger.warn({ stream: def.name }, stats.error);
    await store.finishStream(run.runId, stats, {});
    return stats;
  }
  // Keep the lease while the stream runs; if it is lost, stop at the next page.
  const lost = new AbortController();
  const renewal = setInterval(() => {
    lease.renew().then((ok) => ok || lost.abort(), () => lost.abort());
  }, LEASE_TTL_MS / 3);
  const ctx: StreamContext = {
    client: opts.client,
    store,
    logger: logger.child({ stream: def.name }),
    settings: opts.settings,
    progress,
    signal: AbortSignal.any([run.signal, lost.signal]),
    now: run.now,
    stats,
  };
  progress.start(def.name, null);
  try {
    if (def.kind === 'list') await syncList(ctx, def);
    else if (def.kind === 'fanout') await syncFanout(ctx, def);
    else await def.run(ctx);
  } catch (error) {
    // A spent --max-requests budget or quota is not a failure: the stream stops at its last checkpoint.
    const stop = isStopError(error);
    stats.outcome = stop ? 'stopped' : 'failed';
    stats.error = error instanceof Error ? error.message : String(error);
    if (!stop) stats.errors++;
    (stop ? ctx.logger.info : ctx.logger.error).call(ctx.logger, { err: stats.error }, stop ? 'stopped at the last checkpoint' : 'stream failed');
  } finally {
    clearInterval(renewal);
    stats.durationMs = Date.now() - started;
    if (stats.outcome === 'success' && stats.errors > 0) stats.outcome = 'partial';
    await store.finishStream(run.runId, stats, {});
    await lease.release();
    progress.finish(def.name, stats);
  }
  return stats;
}
