// The daemon from configuration alone: its HTTP door opened first (/healthz answers `starting` while the
// database refuses or does not answer), then on the store the preflight (the service it holds, the jobs
// recorded), the client, the month's budget, the start-up runs checked against the schedule, the jobs and
// the receiver. Everything `ds-mirror daemon` starts, for a program as for the command line.
import type { Logger } from 'pino';
import { watchBudget } from '../budget/budget-health.js';
import { planQuotas } from '../budget/plan-quotas.js';
import { quotaGate } from '../budget/quota-gate.js';
import { httpCredential, type Config } from '../config.js';
import { openDoor, type DaemonDoor } from '../observability/daemon-door.js';
import { loadSecrets, type ReceiverOptions } from '../receiver/index.js';
import { checkedJobs, jobStreams, type RefusedJob, type ScheduledJob, type StartupRun } from '../scheduler/index.js';
import { jobCatalog } from '../scheduler/job-files.js';
import { describeLocation, parseStoreUrl } from '../store/index.js';
import type { Store } from '../store/types.js';
import type { Progress } from '../sync/context.js';
import { syncSettings } from '../sync/settings.js';
import { configuredClient, DEFAULT_METRICS_PORT, DEFAULT_RECEIVER_PORT, storeBounds } from './configured.js';
import { startDaemon, type Daemon } from './daemon.js';
import { startWhenStoreAnswers } from './daemon-start.js';
import type { MirrorParts } from './mirror-parts.js';
import { preflight, type Preflight } from './preflight.js';
import { scheduleProblems } from './schedule-fit.js';
import { scheduleOf } from './sync-budget.js';
import type { StreamDef } from '../catalog/types.js';

export interface DaemonRequest {
  /** Port of /healthz, /metrics and /status (default: the configuration's "metricsPort", else 9464; 0 picks a free one). */
  metricsPort?: number;
  /** Address of /healthz, /metrics and /status (default 127.0.0.1). */
  metricsHost?: string;
  /** At stop, how long the runs in flight may take to commit and checkpoint (default 30 s). */
  stopTimeoutMs?: number;
  /** Start the webhook receiver when the configuration has a "receiver" section (default true). */
  receiver?: boolean;
  /** Jobs run once at start: those with a stream never synced (the default), all, or none. */
  runAtStart?: StartupRun;
  /** Run though the mirror holds another service (it then records this one), and make start-up runs that would leave the schedule short. */
  force?: boolean;
  /** Where the receiver's secrets are read from (default: this process's environment). */
  env?: NodeJS.ProcessEnv;
  /** Where the runs report their streams (default: nowhere). */
  progress?: Progress;
  /** Resolves when the daemon must stop; while it is still starting, the start ends. */
  stopped?: Promise<unknown>;
}

/** The running daemon; `stop()` also closes its client and the store once everything stopped within the bound. */
export type MirrorDaemon = Daemon;

/** The daemon, started; or null when `stopped` came while it was still starting (nothing ran). */
export async function startMirrorDaemon(mirror: MirrorParts, request: DaemonRequest = {}): Promise<MirrorDaemon | null> {
  const { config, logger } = mirror;
  // A job that cannot run (a bad file, a schedule that never fires) is refused in one line; the others run.
  const files = jobCatalog(config.jobsDir);
  const { jobs, refused } = checkedJobs(files.jobs, config.jobs, config.timezone);
  refused.unshift(...files.refused);
  const check = preflight({ config, logger, force: request.force });
  const receiver = request.receiver === false ? undefined : receiverOptions(config, request.env ?? process.env);
  const door = await openDoor({
    port: request.metricsPort ?? config.metricsPort ?? DEFAULT_METRICS_PORT,
    host: request.metricsHost ?? '127.0.0.1',
    auth: httpCredential(config) ?? undefined,
    logger,
  });
  const stopped = request.stopped ?? new Promise<never>(() => {});
  void stopped.then(() => door.stopping());
  const begun = await startWhenStoreAnswers({
    open: () => mirror.store(),
    close: () => mirror.closeStore(),
    start: (store) => startOn(store, { mirror, request, check, jobs, refused, receiver, door }),
    door,
    logger,
    where: describeLocation(parseStoreUrl(config.db, config.dbSchema)),
    stopped,
  }).catch(async (err: unknown) => {
    await door.close();
    throw err;
  });
  if (begun === 'stopped') {
    // Nothing ran yet; whatever the start still waits on (a database that does not answer) is left behind.
    await door.close();
    logger.info('daemon stopped during its start');
    return null;
  }
  // A schedule over its quotas still runs (the ledger stops each run at a quota), but says so first.
  // The database away at this moment must not end a daemon already serving: the check is only a warning.
  const over = await scheduleProblems(begun.store, config, jobs).catch(() => []);
  for (const problem of over) logger.warn({ problem }, `schedule over quota: ${problem}`);
  return begun.started;
}

/** What the start needs besides the store. */
interface DaemonPlan {
  mirror: MirrorParts;
  request: DaemonRequest;
  check: Preflight;
  jobs: ScheduledJob[];
  refused: RefusedJob[];
  receiver: Omit<ReceiverOptions, 'store' | 'logger'> | undefined;
  door: DaemonDoor;
}

/** One attempt at the start on an open store: the preflight, the budget read, the jobs scheduled. */
async function startOn(store: Store, plan: DaemonPlan): Promise<MirrorDaemon> {
  const { mirror, request, check, jobs } = plan;
  const { config, logger } = mirror;
  const at = new Date();
  await check.admit(store, at);
  const client = configuredClient(config, logger, { gate: quotaGate(store, config.limits) });
  try {
    const settings = syncSettings(config);
    const watch = watchBudget({ store, settings, schedule: scheduleOf(jobs), quotas: planQuotas(config.limits), now: Date.now });
    await watch.refresh();
    const daemon = await startDaemon({
      store,
      client,
      logger,
      jobs,
      receiver: plan.receiver,
      settings,
      http: { port: 0, host: request.metricsHost ?? '127.0.0.1', budget: () => watch.current() },
      door: plan.door,
      quotas: planQuotas(config.limits),
      progress: request.progress,
      stopTimeoutMs: request.stopTimeoutMs,
      storeConnectMs: storeBounds(config).connectMs,
      startupRun: await startupRun(logger, check, jobs, request.runAtStart ?? 'never-synced'),
      startupBudget: check.runs(store, settings),
      switchService: request.force,
      refused: plan.refused,
    });
    return closingAtStop(daemon, async () => {
      await client.close();
      await mirror.closeStore();
    });
  } catch (err) {
    await client.close();
    throw err;
  }
}

/** The daemon whose clean stop then closes what the start opened (a run still writing keeps them open). */
function closingAtStop(daemon: Daemon, close: () => Promise<void>): MirrorDaemon {
  let stopped: Promise<boolean> | undefined;
  const stop = () =>
    (stopped ??= daemon.stop().then(async (clean) => {
      if (clean) await close();
      return clean;
    }));
  return { ...daemon, stop };
}

/**
 * The runs made at start, unless the service cannot be reached: then one warning per API family, and the
 * jobs wait for their schedules (the service may be back by then) rather than each retrying and failing now.
 */
async function startupRun(logger: Logger, check: Preflight, jobs: readonly ScheduledJob[], wanted: StartupRun): Promise<StartupRun> {
  if (wanted === 'none') return wanted;
  let streams: StreamDef[];
  try {
    streams = jobs.filter((j) => j.enabled).flatMap((j) => jobStreams(j));
  } catch {
    return wanted; // a job naming an unknown stream: the daemon's start says so
  }
  const unreached = await check.reach(streams);
  for (const line of unreached?.lines ?? []) logger.warn(`${line}; no job runs at start, each waits for its schedule`);
  return unreached ? 'none' : wanted;
}

function receiverOptions(config: Readonly<Config>, env: NodeJS.ProcessEnv): Omit<ReceiverOptions, 'store' | 'logger'> | undefined {
  const r = config.receiver;
  if (!r) return undefined;
  return {
    port: r.port ?? DEFAULT_RECEIVER_PORT,
    host: r.host,
    path: r.path,
    toleranceSec: r.toleranceSec,
    maxBodyBytes: r.maxBodyBytes,
    allowUnsignedViews: r.allowUnsignedViews,
    secrets: loadSecrets(env, r.secretsFile),
    views: config.monitoring?.views,
  };
}
