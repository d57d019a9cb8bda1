// `ds-mirror daemon` as a library: the scheduled jobs, the webhook receiver when configured, and the
// /healthz and /metrics endpoints, in one process. stop() ends it in order: no new tick, runs told to
// stop (the pages in flight commit with their checkpoints), the receiver finishes its in-flight
// deliveries, all within a bound.
import type { Logger } from 'pino';
import type { StreamDef } from '../catalog/types.js';
import type { ApiClient } from '../client/index.js';
import { ConfigError } from '../errors.js';
import { startReceiver, unresolvedViewLine, type Receiver, type ReceiverOptions } from '../receiver/index.js';
import type { Store } from '../store/types.js';
import type { Progress, SyncSettings } from '../sync/context.js';
import { runSync } from '../sync/engine.js';
import { jobStreams, type ScheduledJob } from '../scheduler/configure-jobs.js';
import type { RefusedJob } from '../scheduler/job-def.js';
import { watchStore, type StoreWatch } from './store-watch.js';
import { createDaemonMetrics, type DaemonMetrics } from '../observability/daemon-metrics.js';
import { watchHolds, type HeldFamily, type HoldWatch } from './held-families.js';
import { jobHistory } from '../scheduler/job-history.js';
import { startHealthServer, type HealthServer, type HealthServerOptions } from '../observability/health-server.js';
import type { DaemonDoor } from '../observability/daemon-door.js';
import { statusPage } from '../observability/status-page/status-page.js';
import { planQuotas } from '../budget/plan-quotas.js';
import type { Quotas } from '../budget/quotas.js';
import type { ScheduleEntry } from '../budget/projection.js';
import type { HttpCredential } from '../config.js';
import { idleJobStatus, startScheduler, type JobStatus, type RunJob, type Scheduler } from '../scheduler/scheduler.js';
import { startupJobs, type StartupBudget, type StartupJob, type StartupRun } from '../scheduler/startup-runs.js';

export interface DaemonOptions {
  store: Store;
  client: ApiClient;
  logger: Logger;
  /** Settings of every run; each job sets the mode. */
  settings: SyncSettings;
  /** Every configured job; the disabled ones are listed in /healthz but never run. */
  jobs: readonly ScheduledJob[];
  http: { port: number; host: string; auth?: HttpCredential; budget?: HealthServerOptions['budget'] };
  /** The plan's quotas the status page draws (default: the standard plan's). */
  quotas?: Quotas;
  /** Starts the webhook receiver in the same process. */
  receiver?: Omit<ReceiverOptions, 'store' | 'logger'>;
  progress?: Progress;
  /** How long stop() waits for in-flight runs and deliveries (default 30 s). */
  stopTimeoutMs?: number;
  /** Jobs run once at start, one after the other (default `none`; the CLI's default is `never-synced`). */
  startupRun?: StartupRun;
  /** Refuses a start-up run that would leave the rest of the month's schedule short (omit: --force). */
  startupBudget?: StartupBudget;
  /** The store's connect bound (dbConnectTimeoutMs): /healthz's check of the store waits no longer (at most 5 s). */
  storeConnectMs?: number;
  /** The time /healthz reports against (tests inject one). */
  now?: () => number;
  /** Jobs refused before start (a job file that cannot be read): listed in /healthz, never run. */
  refused?: readonly RefusedJob[];
  /** Switch a mirror that holds another service to this client's (`--force`). */
  switchService?: boolean;
  /** The HTTP door the caller opened before the start (`http`'s port and host are then unused): the daemon answers through it. */
  door?: DaemonDoor;
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
  /**
   * `starting` until the jobs are scheduled; `degraded`: up, but not doing all its work (`reasons` says
   * why); `stopping` once told to stop.
   */
  status: 'starting' | 'ok' | 'degraded' | 'stopping';
  /** Why it is degraded, a line each: the database does not answer, a family's quota is held, a job is refused. */
  reasons: string[];
  /** While `starting` behind a door opened first (`ds-mirror daemon`): what the start waits for. */
  waitingFor?: string;
  /** The families held, with their renewal and what the service said. */
  holds: HeldFamily[];
  startedAt: string;
  uptimeSeconds: number;
  jobs: (JobStatus & { enabled: boolean })[];
  /** Jobs (or job files) never run, with the line naming the file and field to fix. */
  refused: RefusedJob[];
  /** `unresolvedViews`: configured views that do not resolve, whose deliveries are refused. */
  receiver: { url: string; received: number; duplicates: number; refused: Record<string, number>; unresolvedViews: string[] } | null;
  /** The soonest scheduled run, for someone wondering when the mirror will next move. */
  next: { job: string; at: string; inSeconds: number } | null;
  /** The runs made at start (see `startupRun`), in order. */
  startup: StartupJob[];
}

/** What the daemon has started so far, and whether it is stopping. */
interface Life {
  stopping: boolean;
  receiver: Receiver | null;
  /** Null while starting. */
  scheduler: Scheduler | null;
  startup: StartupJob[];
}

/** What /healthz reads besides the jobs: watched in the background, so a probe never waits on the database. */
interface Watches {
  startedAt: Date;
  holds: HoldWatch;
  store: StoreWatch;
}

type Runnable = { job: ScheduledJob; streams: StreamDef[] };

export async function startDaemon(opts: DaemonOptions): Promise<Daemon> {
  const log = opts.logger.child({ component: 'daemon' });
  const { runnable, refused } = runnableJobs(opts);
  for (const r of refused) log.error({ job: r.name }, `job refused (the others run): ${r.problem}`);
  const now = opts.now ?? Date.now;
  const watches: Watches = {
    startedAt: new Date(now()),
    holds: watchHolds(opts.store, now),
    store: watchStore(opts.store, now, opts.storeConnectMs),
  };
  const life: Life = { stopping: false, receiver: null, scheduler: null, startup: [] };
  const metrics = createDaemonMetrics({
    store: opts.store,
    client: opts.client,
    receiver: () => life.receiver?.stats() ?? null,
    jobs: () => life.scheduler?.status() ?? [],
  });
  const health = () => daemonHealth({ opts, life, refused, watches, at: now() });
  // Listening first: a probe of a daemon still reading its history is answered `starting`, never refused.
  const page = pageOf(opts, runnable, () => health().jobs, now);
  const servers = await startServers(opts, metrics, () => ({ ok: !life.stopping, body: health() }), page);
  life.receiver = servers.receiver;
  const scheduler = await scheduleJobs(opts, runnable, life, watches, metrics).catch(async (err: unknown) => {
    // A door the caller opened stays open (it says why the start failed, or tries again).
    await Promise.all([opts.door ? undefined : servers.http.close(), servers.receiver?.close()]);
    throw err;
  });
  const startupDone = runStartupJobs(life.startup, scheduler, log, () => life.stopping);
  const { http, receiver } = servers;
  log.info(
    { health: `${http.url}/healthz`, metrics: `${http.url}/metrics`, receiver: receiver?.url ?? null, jobs: runnable.length },
    'daemon started',
  );
  let stopped: Promise<boolean> | undefined;
  const stop = () => {
    life.stopping = true;
    return (stopped ??= stopDaemon({ log, scheduler, receiver, http, startupDone, timeoutMs: opts.stopTimeoutMs ?? 30_000 }));
  };
  return { url: http.url, receiverUrl: receiver?.url ?? null, scheduler, health, stop };
}

/** The enabled jobs with their streams, and those refused (an unknown stream here, a bad file before). */
function runnableJobs(opts: DaemonOptions): { runnable: Runnable[]; refused: RefusedJob[] } {
  const runnable: Runnable[] = [];
  const refused: RefusedJob[] = [...(opts.refused ?? [])];
  for (const job of opts.jobs.filter((j) => j.enabled)) {
    try {
      runnable.push({ job, streams: jobStreams(job) });
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      refused.push({ name: job.name, problem: err.message });
    }
  }
  return { runnable, refused };
}

/** The start-up runs chosen, the quota holds and the jobs' history read, then the schedules started (the jobs were recorded by the preflight). */
async function scheduleJobs(
  opts: DaemonOptions,
  runnable: Runnable[],
  life: Life,
  watches: Watches,
  metrics: DaemonMetrics,
): Promise<Scheduler> {
  life.startup = await startupJobs(opts.store, runnable, opts.startupRun ?? 'none', opts.startupBudget);
  for (const s of life.startup.filter((r) => r.state === 'refused')) opts.logger.warn({ job: s.job }, s.reason);
  await Promise.all([watches.holds.refresh(), watches.store.refresh()]);
  const history = await jobHistory(
    opts.store,
    runnable.map((e) => e.job.name),
  );
  life.scheduler = startScheduler({
    jobs: runnable,
    logger: opts.logger,
    run: runSyncWith(opts),
    history,
    onFinished: (e) => {
      metrics.jobFinished(e);
      void watches.holds.refresh();
      void watches.store.refresh();
    },
    onSkipped: (job) => metrics.jobSkipped(job),
  });
  return life.scheduler;
}

/** The status page at each request: the store's figures with the scheduler's job states. */
function pageOf(opts: DaemonOptions, schedule: ScheduleEntry[], jobs: () => DaemonHealth['jobs'], now: () => number) {
  return async () =>
    statusPage(opts.store, {
      settings: opts.settings,
      quotas: opts.quotas ?? planQuotas(),
      schedule,
      jobs: jobs(),
      now: new Date(now()),
      source: 'daemon',
    });
}

/** The receiver (when configured) and the /healthz + /metrics server; a receiver started is closed if the other fails. */
async function startServers(
  opts: DaemonOptions,
  metrics: DaemonMetrics,
  health: () => { ok: boolean; body: object },
  statusPage: () => Promise<string>,
): Promise<{ receiver: Receiver | null; http: HealthServer }> {
  let receiver: Receiver | null = null;
  try {
    if (opts.receiver) receiver = await startReceiver({ ...opts.receiver, store: opts.store, logger: opts.logger });
    if (opts.door) {
      opts.door.open({ health, metrics, statusPage, budget: opts.http.budget });
      return { receiver, http: opts.door };
    }
    const http = await startHealthServer({
      ...opts.http,
      logger: opts.logger.child({ component: 'daemon' }),
      metrics,
      health,
      statusPage,
    }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE')
        throw new ConfigError(`port ${opts.http.port} on ${opts.http.host} is in use: choose another with --metrics-port or "metricsPort"`);
      throw err;
    });
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
      switchService: opts.switchService,
    });
}

/** The runs made at start, one after the other, each under the schedule's rules (a job already running is not started twice). */
async function runStartupJobs(startup: StartupJob[], scheduler: Scheduler, log: Logger, stopping: () => boolean): Promise<void> {
  for (const s of startup) {
    if (stopping()) return;
    if (s.state === 'refused') continue;
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
  life: Life;
  refused: readonly RefusedJob[];
  watches: Watches;
  /** Now, in milliseconds. */
  at: number;
}

function daemonHealth({ opts, life, refused, watches, at }: HealthSources): DaemonHealth {
  const held = watches.holds.current();
  const statuses = life.scheduler?.status() ?? [];
  const states = new Map(statuses.map((s) => [s.name, s]));
  const soonest = statuses.filter((s) => s.nextRunAt !== null).sort((a, b) => Date.parse(a.nextRunAt!) - Date.parse(b.nextRunAt!))[0];
  const reasons = [
    watches.store.current(),
    ...held.map((h) => `the ${h.family} quota is held until ${h.until}: ${h.reason}`),
    ...refused.map((r) => `job ${r.name} refused: ${r.problem}`),
    ...(life.receiver?.unresolvedViews() ?? []).map(unresolvedViewLine),
  ].filter((r): r is string => r !== null);
  const status = life.stopping ? 'stopping' : !life.scheduler ? 'starting' : reasons.length > 0 ? 'degraded' : 'ok';
  return {
    status,
    ...(status === 'starting' ? { waitingFor: "the database: the jobs' history, quota holds and start-up runs" } : {}),
    reasons,
    holds: held,
    startedAt: watches.startedAt.toISOString(),
    uptimeSeconds: Math.round((at - watches.startedAt.getTime()) / 1000),
    jobs: opts.jobs.map((j) => ({ ...(states.get(j.name) ?? idleJobStatus(j, j.streams)), enabled: j.enabled })),
    refused: [...refused],
    receiver: life.receiver ? { url: life.receiver.url, ...life.receiver.stats(), unresolvedViews: life.receiver.unresolvedViews() } : null,
    next: soonest
      ? { job: soonest.name, at: soonest.nextRunAt!, inSeconds: Math.max(0, Math.round((Date.parse(soonest.nextRunAt!) - at) / 1000)) }
      : null,
    startup: life.startup.map((s) => ({ ...s })),
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
