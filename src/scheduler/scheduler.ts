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
}

export interface Scheduler {
  status(): JobStatus[];
  /** Starts the job now, as its tick would (same overlap rules); resolves when that run ends. */
  runNow(name: string): Promise<void>;
  /** No new ticks; in-flight runs are told to stop (pages in flight commit). Resolves when none is running. */
  stop(): Promise<void>;
}

export function startScheduler(opts: SchedulerOptions): Scheduler {
  const log = opts.logger.child({ component: 'scheduler' });
  const stopRuns = new AbortController();
  const busy = new Map<string, string>(); // stream → job running it
  const running = new Set<Promise<void>>();
  const entries = opts.jobs.map(({ job, streams }) => {
    const status: JobStatus = {
      name: job.name, schedule: job.schedule, timeZone: job.timeZone ?? null, mode: job.mode,
      streams: streams.map((s) => s.name), running: false, nextRunAt: null, lastStartedAt: null,
      lastFinishedAt: null, lastOutcome: null, lastSuccessAt: null, lastError: null, lastRunId: null, runs: 0, skipped: 0,
      ...opts.history?.[job.name],
    };
    const entry = { job, streams, status, cron: null as CronJob | null };
    entry.cron = CronJob.from({
      cronTime: job.schedule,
      timeZone: job.timeZone,
      name: job.name,
      start: false,
      onTick: () => void tick(entry),
    });
    return entry;
  });
  type Entry = (typeof entries)[number];

  function skip(entry: Entry, why: string): void {
    entry.status.skipped++;
    opts.onSkipped?.(entry.job.name);
    log.warn({ job: entry.job.name }, `tick skipped: ${why}`);
  }

  function tick(entry: Entry): Promise<void> {
    if (stopRuns.signal.aborted) return Promise.resolve();
    if (entry.status.running) {
      skip(entry, 'the previous run is still going');
      return Promise.resolve();
    }
    const free = entry.streams.filter((s) => !busy.has(s.name));
    const held = entry.streams.filter((s) => busy.has(s.name)).map((s) => `${s.name} (${busy.get(s.name)})`);
    if (free.length === 0) {
      skip(entry, `every stream is being synced by another job: ${held.join(', ')}`);
      return Promise.resolve();
    }
    if (held.length > 0) log.info({ job: entry.job.name, held }, 'streams synced by another job are left to it');
    const run = execute(entry, free);
    running.add(run);
    return run.finally(() => running.delete(run));
  }

  async function execute(entry: Entry, streams: readonly StreamDef[]): Promise<void> {
    const { job, status } = entry;
    for (const s of streams) busy.set(s.name, job.name);
    status.running = true;
    status.runs++;
    status.lastStartedAt = new Date().toISOString();
    const started = performance.now();
    log.info({ job: job.name, mode: job.mode, streams: streams.map((s) => s.name) }, 'job started');
    let result: RunResult | null = null;
    let outcome: StreamRunStats['outcome'];
    let error: string | null = null;
    try {
      result = await opts.run(job, streams, stopRuns.signal);
      outcome = result.outcome;
      const failed = result.streams.filter((s) => s.error);
      error = failed.length ? failed.map((s) => `${s.stream}: ${s.error}`).join('; ') : null;
    } catch (err) {
      // The run could not even be recorded (database down, ...): the next tick tries again.
      outcome = 'failed';
      error = err instanceof Error ? err.message : String(err);
    } finally {
      for (const s of streams) busy.delete(s.name);
      status.running = false;
    }
    const durationMs = performance.now() - started;
    status.lastFinishedAt = new Date().toISOString();
    status.lastOutcome = outcome;
    status.lastError = error;
    status.lastRunId = result?.runId ?? status.lastRunId;
    if (outcome === 'success' || outcome === 'partial') status.lastSuccessAt = status.lastFinishedAt;
    const line = { job: job.name, runId: result?.runId, outcome, ms: Math.round(durationMs), ...(error ? { err: error } : {}) };
    if (outcome === 'failed') log.error(line, 'job failed; it runs again on its next tick');
    else log.info(line, 'job finished');
    opts.onFinished?.({ job: job.name, outcome, durationMs, result });
  }

  for (const entry of entries) entry.cron?.start();
  log.info({ jobs: entries.map((e) => ({ job: e.job.name, schedule: e.job.schedule, next: nextRun(e) })) }, 'scheduler started');

  function nextRun(entry: Entry): string | null {
    return entry.cron?.isActive ? entry.cron.nextDate().toJSDate().toISOString() : null;
  }

  return {
    status: () => entries.map((e) => ({ ...e.status, streams: [...e.status.streams], nextRunAt: nextRun(e) })),
    runNow(name) {
      const entry = entries.find((e) => e.job.name === name);
      if (!entry) return Promise.reject(new Error(`no enabled job named ${name}`));
      return tick(entry);
    },
    async stop() {
      for (const e of entries) await e.cron?.stop();
      stopRuns.abort();
      await Promise.all(running);
    },
  };
}
