// A sync run: every chosen stream under its own lease (two workers never interleave one stream), lists
// first and in parallel, then fan-outs (their parents are fresh by then). Each stream's outcome and
// counts are recorded in sync_runs; a failing stream does not stop the others.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { ApiClient } from '../client/index.js';
import { allStreams } from '../catalog/index.js';
import type { StreamDef } from '../catalog/types.js';
import { pruneHistory } from './prune-history.js';
import { DsMirrorError, errorAction } from '../errors.js';
import { connectionLost, describeStoreError, storageCause } from '../store/storage-errors.js';
import type { Lease, Store, StreamRunStats } from '../store/types.js';
import { emptyStats, silentProgress, type Progress, type StreamContext, type SyncSettings } from './context.js';
import { checkService, recordService, recordingService } from './mirrored-service.js';
import { runnerOf } from './runners.js';
import type { RunnerOutput } from './stream-runner.js';
import { recordCatalog } from '../mirror-schema/stream-catalog.js';
import { ParseBudget, PARSED_RECORDS_AT_ONCE } from './parse-budget.js';
import { acquireStreamLease, LEASE_TTL_MS, leaseOwner, ownerDied, ownerRunning } from './stream-lease.js';

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
  /** Switch a mirror that holds another service to this client's (`--force`); refused otherwise. */
  switchService?: boolean;
  /** The run's clock (rows' times, held deletions' waits); the system's by default. */
  clock?: () => Date;
}

export interface RunResult extends RunnerOutput {
  runId: number;
  outcome: StreamRunStats['outcome'];
  streams: StreamRunStats[];
  /** Why the run failed after its streams: a write of its own records (the streams, retention, its end) did not commit. */
  error?: string;
}

/** Tries of a bookkeeping write whose connection was cut, and the pause before the next (times the try). */
const BOOKKEEPING_ATTEMPTS = 3;
const BOOKKEEPING_PAUSE_MS = 50;

const SEVERITY: StreamRunStats['outcome'][] = ['success', 'partial', 'skipped', 'stopped', 'failed'];

export async function runSync(opts: RunOptions): Promise<RunResult> {
  const owner = opts.owner ?? leaseOwner();
  const ended = ownerRunning(owner);
  try {
    return await runAs(opts, owner);
  } finally {
    ended(); // leases it could not release are now free to take (see stream-lease.ts)
  }
}

async function runAs(opts: RunOptions, owner: string): Promise<RunResult> {
  const { store } = opts;
  const now = () => (opts.clock?.() ?? new Date()).toISOString();
  const signal = opts.signal ?? new AbortController().signal;
  // One mirror, one service: a run against another one would soft-delete the first one's rows. The
  // service is recorded at its first answer, so a wrong address that answers nothing claims nothing.
  const service = opts.client.service;
  const storeFailure = (err: unknown) => {
    throw storageCause(err)
      ? new DsMirrorError('DS_STORAGE', `cannot read the mirrored service: ${describeStoreError(err, store.location)}`)
      : err;
  };
  await checkService(store, service, opts.switchService).catch(storeFailure);
  const recording = recordingService(opts.client, () => recordService(store, service, opts.switchService).catch(storeFailure));
  // Runs whose process died left their rows open: close them as interrupted, so history is honest.
  try {
    const interrupted = await store.closeInterruptedRuns(now(), new Date(Date.now() - LEASE_TTL_MS).toISOString(), ownerDied);
    if (interrupted.length > 0)
      opts.logger.warn({ runs: interrupted }, 'earlier runs ended without finishing (process killed?): marked interrupted');
  } catch (err) {
    opts.logger.warn({ err: describeStoreError(err, store.location) }, 'could not close the runs of dead processes');
  }
  const runId = await store
    .startRun(
      opts.streams.map((s) => s.name),
      opts.settings.mode,
      now(),
      opts.job,
      owner,
    )
    .catch((err: unknown) => {
      throw new DsMirrorError('DS_STORAGE', `cannot record the run: ${describeStoreError(err, store.location)}`);
    });
  const parsed = new ParseBudget(opts.settings.parsedRecordsAtOnce ?? PARSED_RECORDS_AT_ONCE);
  // What the hand-written runners hand back (a views pass's account of its records), for the caller.
  const outputs: RunnerOutput = {};
  const unrecorded = saidOnce(opts.logger);
  const run = (def: StreamDef) =>
    runStream({ ...opts, client: recording }, def, { runId, owner, signal, now, parsed, outputs, unrecorded });

  const results = await Promise.all(opts.streams.filter((s) => s.kind !== 'fanout').map(run));
  results.push(...(await Promise.all(opts.streams.filter((s) => s.kind === 'fanout').map(run))));
  const worst = results.reduce<StreamRunStats['outcome']>(
    (w, s) => (SEVERITY.indexOf(s.outcome) > SEVERITY.indexOf(w) ? s.outcome : w),
    'success',
  );
  const { outcome, error } = await finishRun(opts, runId, worst, now);
  return { ...outputs, runId, outcome, streams: results, ...(error ? { error } : {}) };
}

/**
 * The run's own records, its end last: the run succeeds only once its last write has committed. A store
 * that can no longer write (disk full) fails the run with the first cause, but costs no summary: the
 * streams' results stand.
 */
async function finishRun(
  opts: RunOptions,
  runId: number,
  worst: StreamRunStats['outcome'],
  now: () => string,
): Promise<{ outcome: StreamRunStats['outcome']; error?: string }> {
  const { store } = opts;
  const failures: string[] = [];
  const attempt = (what: string, write: () => Promise<unknown>) =>
    write().catch((err: unknown) => {
      failures.push(`${what}: ${describeStoreError(err, store.location)}`);
      opts.logger.debug({ err: failures.at(-1) }, 'a write of the run failed');
    });
  await attempt('the streams and their live rows could not be recorded', () =>
    recordCatalog(store.db, [...allStreams(), ...opts.streams], now()),
  );
  await attempt('history retention could not be applied', () => pruneHistory(store.db, opts.clock?.() ?? new Date()));
  const outcome = failures.length > 0 ? 'failed' : worst;
  await attempt('the run could not be recorded as finished', () => bookkeep(() => store.finishRun(runId, outcome, now())));
  return failures.length > 0 ? { outcome: 'failed', error: failures[0] } : { outcome };
}

/** What the streams of one run share. */
interface StreamRun {
  runId: number;
  owner: string;
  signal: AbortSignal;
  now: () => string;
  parsed: ParseBudget;
  outputs: RunnerOutput;
  unrecorded: (stream: string, cause: string) => void;
}

/**
 * Says each cause of a stream result the store could not record once for the run: a database gone silent
 * fails every stream alike, and one line says so better than one per stream.
 */
function saidOnce(logger: RunOptions['logger']): (stream: string, cause: string) => void {
  const said = new Set<string>();
  return (stream, cause) => {
    if (said.has(cause)) return logger.debug({ stream, err: cause }, 'the stream result could not be recorded');
    said.add(cause);
    logger.error({ stream, err: cause }, 'the stream result could not be recorded (said once for every stream it fails)');
  };
}

async function runStream(opts: RunOptions, def: StreamDef, run: StreamRun): Promise<StreamRunStats> {
  const { store, logger } = opts;
  const progress = opts.progress ?? silentProgress;
  const stats = emptyStats(def.name);
  const started = Date.now();
  const lease = await takeLease(store, def.name, run.owner, stats);
  if (!lease) {
    // Said once, by whoever reports the run (the summary, the daemon's job line).
    logger.debug({ stream: def.name }, stats.error ?? '');
    await bookkeep(() => store.finishStream(run.runId, stats, run.now())).catch((err: unknown) => {
      run.unrecorded(def.name, describeStoreError(err, store.location));
    });
    return stats;
  }
  // Keep the lease while the stream runs; if it is lost, stop at the next page.
  const lost = new AbortController();
  const renewal = keepLease(lease, lost);
  const ctx: StreamContext = {
    client: opts.client.counting(stats), // the stream's requests, counted where they are sent
    store,
    logger: logger.child({ stream: def.name }),
    settings: opts.settings,
    progress,
    signal: AbortSignal.any([run.signal, lost.signal]),
    now: run.now,
    stats,
    parsed: run.parsed.share(),
  };
  progress.start(def.name, null);
  try {
    Object.assign(run.outputs, await runnerOf(def).run(ctx));
  } catch (error) {
    recordFailure(ctx, error);
  } finally {
    clearInterval(renewal);
    ctx.parsed.close(); // what a failure left taken (a page parsed, never written) goes back to the other lists
    stats.durationMs = Date.now() - started;
    if (stats.outcome === 'success' && stats.errors > 0) stats.outcome = 'partial';
    // Recording the result may fail like the write before it (disk full): the stream then failed (its
    // result is still returned), since its last write did not commit.
    await bookkeep(() => store.finishStream(run.runId, stats, run.now())).catch((err: unknown) => {
      if (stats.outcome !== 'failed') {
        stats.outcome = 'failed';
        stats.errors++;
        stats.error = `its result could not be recorded: ${describeStoreError(err, store.location)}`;
      }
      ctx.logger.debug({ err: describeStoreError(err, store.location) }, 'the stream result could not be recorded');
    });
    await bookkeep(() => lease.release()).catch(() => {}); // it expires by itself, or the next run here takes it back
    progress.finish(def.name, stats);
  }
  return stats;
}

/** The stream's lease, or null with `stats` saying why: skipped (another worker holds it) or failed (the store is unreachable). */
async function takeLease(store: Store, stream: string, owner: string, stats: StreamRunStats): Promise<Lease | null> {
  try {
    const lease = await acquireStreamLease(store, stream, owner);
    if (!('heldBy' in lease)) return lease;
    stats.outcome = 'skipped';
    stats.error = `stream ${stream} is being synced by another worker (${lease.heldBy}); skipped`;
  } catch (err) {
    // A cut connection or a restart fails this stream in one line, as a failed write would.
    stats.outcome = 'failed';
    stats.errors++;
    stats.error = `cannot take the stream's lease: ${describeStoreError(err, store.location)}`;
  }
  return null;
}

/**
 * A write of the run's own records: a stream's result, the run's end, a lease's release. A connection cut
 * under it (a restart, a failover) is tried again on a fresh one, a moment later so that the pool has
 * dropped the dead one; otherwise the run would read as unfinished, and its leases as held, until a later
 * run tidies up.
 */
async function bookkeep(write: () => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await write();
      return;
    } catch (err) {
      if (!connectionLost(err) || attempt === BOOKKEEPING_ATTEMPTS) throw err;
      await sleep(BOOKKEEPING_PAUSE_MS * attempt);
    }
  }
}

/** Renews the lease every third of its time to live; a renewal that fails aborts `lost`. */
function keepLease(lease: { renew(): Promise<boolean> }, lost: AbortController): NodeJS.Timeout {
  return setInterval(() => {
    lease.renew().then(
      (ok) => ok || lost.abort(),
      () => lost.abort(),
    );
  }, LEASE_TTL_MS / 3);
}

/** A stop (a spent --max-requests budget or quota) is not a failure: the stream ends at its last checkpoint. */
function recordFailure(ctx: StreamContext, error: unknown): void {
  const stop = errorAction(error) === 'stop';
  ctx.stats.outcome = stop ? 'stopped' : 'failed';
  ctx.stats.error = describeStoreError(error, ctx.store.location);
  ctx.stats.errorCode = error instanceof DsMirrorError ? error.code : null;
  if (!stop) ctx.stats.errors++;
  // The summary reports a failure once; the log keeps it for debugging.
  if (stop) ctx.logger.info({ err: ctx.stats.error }, 'stopped at the last checkpoint');
  else ctx.logger.debug({ err: ctx.stats.error }, 'stream failed');
}
