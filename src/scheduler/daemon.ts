// `ds-mirror daemon` as a library: the scheduled jobs, the webhook receiver when configured, and the
// /healthz and /metrics endpoints, in one process. stop() ends it in order: no new tick, runs told to
// stop (the pages in flight commit with their checkpoints), the receiver finishes its in-flight
// deliveries, all within a bound.
import type { Logger } from 'pino';
import { resolveStreams } from '../catalog/index.js';
import type { StreamDef } from '../catalog/types.js';
import type { ApiClient } from '../client/index.js';
import { ConfigError } from '../errors.js';
import { startReceiver, type Receiver, type ReceiverOptions } from '../receiver/index.js';
import type { Store } from '../store/types.js';
import type { Progress, SyncSettings } from '../sync/context.js';
import { runSync } from '../sync/engine.js';
import type { ScheduledJob } from './configure-jobs.js';
import { createDaemonMetrics, type DaemonMetrics } from '../observability/daemon-metrics.js';
import { watchHolds, type HeldFamily, type HoldWatch } from './held-families.js';
import { jobHistory } from './job-history.js';
import { recordJobs } from './record-jobs.js';
import { startHealthServer, type HealthServer } from '../observability/health-server.js';
import { idleJobStatus, startScheduler, type JobStatus, type RunJob, type Scheduler } from './scheduler.js';
import { startupJobs, type StartupJob, type StartupRun } from './startup-runs.js';

export interface DaemonOptions {
  store: Store;
  client: ApiClient;
  logger: Logger;
  /** Settings of every run; each job sets the mode. */
  settings: SyncSettings;
  /** Every configured job; the disabled ones are listed in /healthz but never run. */
  jobs: readonly ScheduledJob[];
  http: { port: number; host: string };
  /** Starts the webhook receiver in the same process. */
  receiver?: Omit<ReceiverOptions, 'store' | 'logger'>;
  progress?: Progress;
  /** How long stop() waits for in-flight runs and deliveries (default 30 s). */
  stopTimeoutMs?: number;
  /** Jobs run once at start, one after the other (default `none`; the CLI's default is `never-synced`). */
  startupRun?: StartupRun;
  /** The time /healthz reports against (tests inject one). */
  now?: () => number;
}

export interface Daemon {
  /** Base URL of /healthz and /metrics. */
  url: string;
  receiverUrl: string | null;
  scheduler: Scheduler;
  /** What /healthz answers. */
  health(): DaemonHealth;
  /** Resolves true when everything stopped within the bound, false when runs were still going. */
  stop(): Promise<boolean>;
}

export interface DaemonHealth {
  /** `degraded`: up, but a family's quota is held (the service said it is spent), so its runs wait. */
  status: 'ok' | 'degraded' | 'stopping';
  /** The families held, with their renewal and what the service said. */
  holds: HeldFamily[];
  startedAt: string;
  uptimeSeconds: number;
  jobs: (JobStatus & { enabled: boolean })[];
  receiver: { url: string; received: number; duplicates: number; refused: Record<string, number> } | null;
  /** The soonest scheduled run, for someone wondering when the mirror will next move. */
  next: { job: string; at: string; inSeconds: number } | null;
  /** The runs made at start (see `startupRun`), in order. */
  startup: StartupJob[];
}

/** A job's streams, or one line that names the job and the stream it does not know. */
export function jobStreams(job: ScheduledJob): StreamDef[] {
  try {
    return resolveStreams(job.streams);
  } catch (err) {
    if (err instanceof ConfigError)
      throw new ConfigError(`job ${job.name}: ${err.message} (disable it with jobs.${job.name}.enabled = false)`);
    throw err;
  }
}

export async function startDaemon(opts: DaemonOptions): Promise<Daemon> {
  const log = opts.logger.child({ component: 'daemon' });
  const enabled = opts.jobs.filter((j) => j.enabled).map((job) => ({ job, streams: jobStreams(job) }));
  const now = opts.now ?? Date.now;
  const startedAt = new Date(now());
  await recordJobs(opts.store, opts.jobs, startedAt).catch((err: unknown) => {
    log.warn({ err: err instanceof Error ? err.message : String(err) }, 'the jobs could not be recorded in the store (v_jobs, v_streams)');
  });
  const startup = await startupJobs(opts.store, enabled, opts.startupRun ?? 'none');
  const holds = watchHolds(opts.store, now);
  await holds.refresh();
  const life = { stopping: false };
  const parts: { receiver: Receiver | null; scheduler?: Scheduler } = { receiver: null };
  const metrics = createDaemonMetrics({
    store: opts.store,
    client: opts.client,
    receiver: () => parts.receiver?.stats() ?? null,
    jobs: () => parts.scheduler?.status() ?? [],
  });
  let health = (): DaemonHealth => {
    throw new Error('the daemon is still starting');
  };
  const servers = await startServers(opts, metrics, () => ({ ok: !life.stopping, body: health() }));
  parts.receiver = servers.receiver;

  const scheduler = startScheduler({
    jobs: enabled,
    logger: opts.logger,
    run: runSyncWith(opts),
    history: await jobHistory(
      opts.store,
      enabled.map((e) => e.job.name),
    ),
    onFinished: (e) => {
      metrics.jobFinished(e);
      void holds.refresh();
    },
    onSkipped: (job) => metrics.jobSkipped(job),
  });
  parts.scheduler = scheduler;
  const startupDone = runStartupJobs(startup, scheduler, log, () => life.stopping);
  health = () =>
    daemonHealth({ opts, scheduler, receiver: servers.receiver, startup, startedAt, at: now(), stopping: life.stopping, holds });

  const { http, receiver } = servers;
  log.info(
    { health: `${http.url}/healthz`, metrics: `${http.url}/metrics`, receiver: receiver?.url ?? null, jobs: enabled.length },
    'daemon started',
  );
  let stopped: Promise<boolean> | undefined;
  const stop = () => {
    life.stopping = true;
    return (stopped ??= stopDaemon({ log, scheduler, receiver, http, startupDone, timeoutMs: opts.stopTimeoutMs ?? 30_000 }));
  };
  return { url: http.url, receiverUrl: receiver?.url ?? null, scheduler, health: () => health(), stop };
}

/** The receiver (when configured) and the /healthz + /metrics server; a receiver started is closed if the other fails. */
async function startServers(
  opts: DaemonOptions,
  metrics: DaemonMetrics,
  health: () => { ok: boolean; body: object },
): Promise<{ receiver: Receiver | null; http: HealthServer }> {
  let receiver: Receiver | null = null;
  try {
    if (opts.receiver) receiver = await startReceiver({ ...opts.receiver, store: opts.store, logger: opts.logger });
    const http = await startHealthServer({ ...opts.http, logger: opts.logger.child({ component: 'daemon' }), metrics, health }).catch(
      (err: NodeJS.ErrnoException) => {
        if (err.code === 'EADDRINUSE')
          throw new ConfigError(
            `port ${opts.http.port} on ${opts.http.host} is in use: choose another with --metrics-port or "metricsPort"`,
          );
        throw err;
      },
    );
    return { receiver, http };
  } catch (err) {
    await receiver?.close();
    throw err;
  }
}

/** A job's run: one sync of its streams in the job's mode. */
function runSyncWith(opts: DaemonOptions): RunJob {
  return (job, streams, signal) =>
    runSync({
      client: opts.client,
      store: opts.store,
      logger: opts.logger.child({ job: job.name }),
      settings: { ...opts.settings, mode: job.mode },
      streams,
      signal,
      progress: opts.progress,
      job: job.name,
    });
}

/** The runs made at start, one after the other, each under the schedule's rules (a job already running is not started twice). */
async function runStartupJobs(startup: StartupJob[], scheduler: Scheduler, log: Logger, stopping: () => boolean): Promise<void> {
  for (const s of startup) {
    if (stopping()) return;
    s.state = 'running';
    log.info({ job: s.job, why: s.reason }, 'start-up run');
    await scheduler
      .runNow(s.job)
      .catch((err: unknown) => log.error({ job: s.job, err: err instanceof Error ? err.message : String(err) }, 'start-up run failed'));
    s.state = 'done';
  }
}

interface HealthSources {
  opts: DaemonOptions;
  scheduler: Scheduler;
  receiver: Receiver | null;
  startup: readonly StartupJob[];
  startedAt: Date;
  /** Now, in milliseconds. */
  at: number;
  stopping: boolean;
  holds: HoldWatch;
}

function daemonHealth({ opts, scheduler, receiver, startup, startedAt, at, stopping, holds }: HealthSources): DaemonHealth {
  const held = holds.current();
  const statuses = scheduler.status();
  const states = new Map(statuses.map((s) => [s.name, s]));
  const soonest = statuses.filter((s) => s.nextRunAt !== null).sort((a, b) => Date.parse(a.nextRunAt!) - Date.parse(b.nextRunAt!))[0];
  return {
    status: stopping ? 'stopping' : held.length > 0 ? 'degraded' : 'ok',
    holds: held,
    startedAt: startedAt.toISOString(),
    uptimeSeconds: Math.round((at - startedAt.getTime()) / 1000),
    jobs: opts.jobs.map((j) => ({ ...(states.get(j.name) ?? idleJobStatus(j, j.streams)), enabled: j.enabled })),
    receiver: receiver ? { url: receiver.url, ...receiver.stats() } : null,
    next: soonest
      ? { job: soonest.name, at: soonest.nextRunAt!, inSeconds: Math.max(0, Math.round((Date.parse(soonest.nextRunAt!) - at) / 1000)) }
      : null,
    startup: startup.map((s) => ({ ...s })),
  };
}

interface Running {
  log: Logger;
  scheduler: Scheduler;
  receiver: Receiver | null;
  http: HealthServer;
  startupDone: Promise<void>;
  timeoutMs: number;
}

/** No new runs; the runs in flight and the receiver's deliveries finish within the bound; then the HTTP server closes. */
async function stopDaemon({ log, scheduler, receiver, http, startupDone, timeoutMs }: Running): Promise<boolean> {
  log.warn({ timeoutMs }, 'stopping: no new runs; the pages in flight commit and checkpoint');
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  const drained = Promise.all([scheduler.stop(), receiver?.close(), startupDone]).then(() => true as const);
  const clean = await Promise.race([drained, bound]);
  clearTimeout(timer);
  await http.close();
  if (clean) log.info('daemon stopped');
  else
    log.error(
      {
        running: scheduler
          .status()
          .filter((s) => s.running)
          .map((s) => s.name),
      },
      `runs still going after ${timeoutMs} ms; exiting anyway (the next run resumes from the last checkpoint)`,
    );
  return clean;
}
