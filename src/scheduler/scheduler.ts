// Cron wiring of the configured jobs. A job never overlaps itself: a tick that finds the job still
// running is logged and skipped (the next tick comes soon enough, and a queue would only pile up behind
// a slow upstream). Two jobs of this process never sync the same stream at once either: a tick runs the
// job's streams that are free and leaves the busy ones to the job holding them. Across processes the
// engine's leases do the same.
import { CronJob } from 'cron';
import type { Logger } from 'pino';
import type { StreamDef } from '../catalog/types.js';
import type { StreamRunStats } from '../store/types.js';
import type { RunResult } from '../sync/engine.js';
import type { ScheduledJob } from './configure-jobs.js';

export type RunJob = (job: ScheduledJob, streams: readonly StreamDef[], signal: AbortSignal) => Promise<RunResult>;

export interface JobStatus {
  name: string;
  schedule: string;
  timeZone: string | null;
  mode: ScheduledJob['mode'];
  streams: string[];
  running: boolean;
  nextRunAt: string | null;
  lastStartedAt: string | null;
  lastFinishedAt: string | null;
  lastOutcome: StreamRunStats['outcome'] | null;
  /** When a run last ended in success or partial (some records quarantined), this process or an earlier one. */
  lastSuccessAt: string | null;
  lastError: string | null;
  lastRunId: number | null;
  runs: number;
  skipped: number;
}

export interface JobFinished {
  job: string;
  outcome: StreamRunStats['outcome'];
  durationMs: number;
  result: RunResult | null;
}

export interface SchedulerOptions {
  /** Enabled jobs with their streams, resolved at startup. */
  jobs: readonly { job: ScheduledJob; streams: readonly StreamDef[] }[];
  run: RunJob;
  logger: Logger;
  onFinished?: (e: JobFinished) => void;
  onSkipped?: (job: string) => void;
  /** Each job's last run and success before this process started (from sync_runs). */
  history?: Readonly<Record<string, Partial<JobStatus>>>;
  /**
   * Milliseconds since the epoch, for the times a job reports and its duration (default Date.now).
   * The cron ticks follow the timers and Date, which tests replace with fake timers.
   */
  now?: () => number;
}

export interface Scheduler {
  status(): JobStatus[];
  /** Starts the job now, as its tick would (same overlap rules); resolves when that run ends. */
  runNow(name: string): Promise<void>;
  /** No new ticks; in-flight runs are told to stop (pages in flight commit). Resolves when none is running. */
  stop(): Promise<void>;
}

/** A configured job as the scheduler holds it: its cron timer and what it reports. */
interface JobEntry {
  job: ScheduledJob;
  streams: readonly StreamDef[];
  status: JobStatus;
  cron: CronJob;
}

/** What every tick of this scheduler shares. */
interface SchedulerState {
  opts: SchedulerOptions;
  log: Logger;
  now: () => number;
  /** Aborted by stop(): no new run, and the running ones stop at their next page. */
  stopRuns: AbortController;
  /** Stream name → the job syncing it now. */
  busyStreams: Map<string, string>;
  runsInFlight: Set<Promise<void>>;
}

export function startScheduler(opts: SchedulerOptions): Scheduler {
  const state: SchedulerState = {
    opts,
    log: opts.logger.child({ component: 'scheduler' }),
    now: opts.now ?? Date.now,
    stopRuns: new AbortController(),
    busyStreams: new Map(),
    runsInFlight: new Set(),
  };
  const entries = opts.jobs.map(({ job, streams }) => jobEntry(job, streams, opts.history?.[job.name], (entry) => void tick(state, entry)));
  for (const entry of entries) entry.cron.start();
  state.log.info({ jobs: entries.map((e) => ({ job: e.job.name, schedule: e.job.schedule, next: nextRun(e) })) }, 'scheduler started');

  return {
    status: () => entries.map((e) => ({ ...e.status, streams: [...e.status.streams], nextRunAt: nextRun(e) })),
    runNow(name) {
      const entry = entries.find((e) => e.job.name === name);
      if (!entry) return Promise.reject(new Error(`no enabled job named ${name}`));
      return tick(state, entry);
    },
    async stop() {
      for (const e of entries) await e.cron.stop();
      state.stopRuns.abort();
      await Promise.all(state.runsInFlight);
    },
  };
}

/** A job that has not run in this process: its schedule and streams, no run yet. */
export function idleJobStatus(job: ScheduledJob, streams: readonly string[]): JobStatus {
  return {
    name: job.name,
    schedule: job.schedule,
    timeZone: job.timeZone ?? null,
    mode: job.mode,
    streams: [...streams],
    running: false,
    nextRunAt: null,
    lastStartedAt: null,
    lastFinishedAt: null,
    lastOutcome: null,
    lastSuccessAt: null,
    lastError: null,
    lastRunId: null,
    runs: 0,
    skipped: 0,
  };
}

function jobEntry(
  job: ScheduledJob,
  streams: readonly StreamDef[],
  history: Partial<JobStatus> | undefined,
  onTick: (entry: JobEntry) => void,
): JobEntry {
  const status: JobStatus = {
    ...idleJobStatus(
      job,
      streams.map((s) => s.name),
    ),
    ...history,
  };
  const cron = CronJob.from({ cronTime: job.schedule, timeZone: job.timeZone, name: job.name, start: false, onTick: () => onTick(entry) });
  const entry: JobEntry = { job, streams, status, cron };
  return entry;
}

function nextRun(entry: JobEntry): string | null {
  return entry.cron.isActive ? entry.cron.nextDate().toJSDate().toISOString() : null;
}

/** A tick runs the job's free streams, unless the job is still running or all its streams are busy. */
function tick(state: SchedulerState, entry: JobEntry): Promise<void> {
  if (state.stopRuns.signal.aborted) return Promise.resolve();
  if (entry.status.running) {
    skip(state, entry, 'the previous run is still going');
    return Promise.resolve();
  }
  const { busyStreams } = state;
  const free = entry.streams.filter((s) => !busyStreams.has(s.name));
  const held = entry.streams.filter((s) => busyStreams.has(s.name)).map((s) => `${s.name} (${busyStreams.get(s.name)})`);
  if (free.length === 0) {
    skip(state, entry, `every stream is being synced by another job: ${held.join(', ')}`);
    return Promise.resolve();
  }
  if (held.length > 0) state.log.info({ job: entry.job.name, held }, 'streams synced by another job are left to it');
  const run = execute(state, entry, free);
  state.runsInFlight.add(run);
  return run.finally(() => state.runsInFlight.delete(run));
}

function skip(state: SchedulerState, entry: JobEntry, why: string): void {
  entry.status.skipped++;
  state.opts.onSkipped?.(entry.job.name);
  state.log.warn({ job: entry.job.name }, `tick skipped: ${why}`);
}

async function execute(state: SchedulerState, entry: JobEntry, streams: readonly StreamDef[]): Promise<void> {
  const { job, status } = entry;
  for (const s of streams) state.busyStreams.set(s.name, job.name);
  status.running = true;
  status.runs++;
  const started = state.now();
  status.lastStartedAt = new Date(started).toISOString();
  state.log.info({ job: job.name, mode: job.mode, streams: streams.map((s) => s.name) }, 'job started');
  let ended: RunEnd;
  try {
    ended = await runJob(state, job, streams);
  } finally {
    for (const s of streams) state.busyStreams.delete(s.name);
    status.running = false;
  }
  const finished = state.now();
  recordEnd(status, ended, finished);
  const durationMs = finished - started;
  const line = {
    job: job.name,
    runId: ended.result?.runId,
    outcome: ended.outcome,
    ms: Math.round(durationMs),
    ...(ended.error ? { err: ended.error } : {}),
  };
  if (ended.outcome === 'failed') state.log.error(line, 'job failed; it runs again on its next tick');
  else state.log.info(line, 'job finished');
  state.opts.onFinished?.({ job: job.name, outcome: ended.outcome, durationMs, result: ended.result });
}

interface RunEnd {
  result: RunResult | null;
  outcome: StreamRunStats['outcome'];
  error: string | null;
}

async function runJob(state: SchedulerState, job: ScheduledJob, streams: readonly StreamDef[]): Promise<RunEnd> {
  try {
    const result = await state.opts.run(job, streams, state.stopRuns.signal);
    const failed = [
      ...result.streams.filter((s) => s.error).map((s) => `${s.stream}: ${s.error}`),
      ...(result.error ? [result.error] : []),
    ];
    return { result, outcome: result.outcome, error: failed.length ? failed.join('; ') : null };
  } catch (err) {
    // The run could not even be recorded (database down, ...): the next tick tries again.
    return { result: null, outcome: 'failed', error: err instanceof Error ? err.message : String(err) };
  }
}

function recordEnd(status: JobStatus, { result, outcome, error }: RunEnd, finishedAt: number): void {
  status.lastFinishedAt = new Date(finishedAt).toISOString();
  status.lastOutcome = outcome;
  status.lastError = error;
  status.lastRunId = result?.runId ?? status.lastRunId;
  if (outcome === 'success' || outcome === 'partial') status.lastSuccessAt = status.lastFinishedAt;
}
