// `ds-mirror daemon`: runs the scheduled jobs and (when the config has a "receiver" section) the webhook
// receiver in one process, with /healthz and /metrics. SIGTERM or SIGINT stops it cleanly within
// --stop-timeout; a second signal exits at once. Secrets come from the environment or files only.
import { Option, type Command } from 'commander';
import { DEFAULT_RECEIVER_PORT } from './receive-command.js';
import { jobCatalog } from '../scheduler/job-files.js';
import { planQuotas, quotaGate } from '../budget/index.js';
import { watchBudget } from '../budget/budget-health.js';
import { runFitter } from '../budget/run-fit.js';
import type { Store } from '../store/types.js';
import { scheduleProblems } from './schedule-fit.js';
import { scheduleOf } from './sync-budget.js';
import { httpCredential, requireService, type Config } from '../config.js';
import { loadSecrets, type ReceiverOptions } from '../receiver/index.js';
import { checkedJobs, jobStreams, startDaemon, STARTUP_RUNS, type Daemon, type ScheduledJob, type StartupRun } from '../scheduler/index.js';
import { syncSettings } from '../sync/settings.js';
import { EXIT, type CliIo, type SetExit } from './io.js';
import { commandContext, openConfiguredStore, wholeNumber, configuredClient, type CommandContext } from './context.js';
import { startWhenStoreAnswers } from './daemon-start.js';
import { openDoor, type DaemonDoor } from '../observability/daemon-door.js';
import { describeLocation, parseStoreUrl } from '../store/index.js';
import type { ApiClient } from '../client/index.js';
import type { RefusedJob } from '../scheduler/job-def.js';
import { checkService } from '../sync/mirrored-service.js';
import type { StreamDef } from '../catalog/types.js';
import type { Logger } from 'pino';
import { logProgress } from './progress-bars.js';
import { onStopSignal } from './stop-signal.js';
import { unreachedFamilies } from './reach-service.js';
import { counted } from '../figures.js';

const DEFAULT_METRICS_PORT = 9464;

interface DaemonFlags {
  metricsPort?: number;
  metricsHost: string;
  stopTimeout: number;
  receiver: boolean;
  runAtStart: StartupRun;
  force?: boolean;
}

export function daemonCommand(program: Command, io: CliIo, setExit: SetExit): void {
  program
    .command('daemon')
    .description(
      'Run the scheduled jobs (see `ds-mirror jobs`) and, when configured, the webhook receiver; serve /healthz, /metrics and /status',
    )
    .option(
      '--metrics-port <n>',
      `port of /healthz and /metrics ("metricsPort"; default ${DEFAULT_METRICS_PORT}; 0 picks a free one)`,
      wholeNumber('--metrics-port'),
    )
    .option('--metrics-host <host>', 'address of /healthz and /metrics', '127.0.0.1')
    .option(
      '--stop-timeout <seconds>',
      'on SIGTERM/SIGINT, how long in-flight runs may take to commit and checkpoint',
      wholeNumber('--stop-timeout'),
      30,
    )
    .option('--no-receiver', 'do not start the webhook receiver even if the config has a "receiver" section')
    .addOption(
      new Option(
        '--run-at-start <which>',
        'jobs run once at start: those with a stream never synced, all, or none (wait for the schedules)',
      )
        .choices(STARTUP_RUNS)
        .default('never-synced'),
    )
    .option(
      '--force',
      "run even though this mirror holds another service (it then records this one), and make start-up runs that would leave the month's schedule short",
    )
    .action((flags: DaemonFlags, command: Command) => runDaemon(flags, command, io, setExit));
}

/**
 * Opens its HTTP door first, then the store and the jobs behind it (again while the database refuses or
 * does not answer), then waits for SIGTERM/SIGINT.
 */
async function runDaemon(flags: DaemonFlags, command: Command, io: CliIo, setExit: SetExit): Promise<void> {
  const ctx = commandContext(command, io);
  // A job that cannot run (a bad file, a schedule that never fires) is refused in one line; the others run.
  const files = jobCatalog(ctx.config.jobsDir);
  const { jobs, refused } = checkedJobs(files.jobs, ctx.config.jobs, ctx.config.timezone);
  refused.unshift(...files.refused);
  const service = requireService(ctx.config);
  const receiver = flags.receiver ? receiverOptions(ctx.config, io.env) : undefined;
  const plan: DaemonPlan = { ctx, flags, jobs, refused, receiver, baseUrl: service.baseUrl };
  const stop = onStopSignal(ctx.logger, flags.stopTimeout * 1000, EXIT.failed, 'stopping: no new runs; the pages in flight commit');
  const door = await openDoor({
    port: flags.metricsPort ?? ctx.config.metricsPort ?? DEFAULT_METRICS_PORT,
    host: flags.metricsHost,
    auth: httpCredential(ctx.config) ?? undefined,
    logger: ctx.logger,
  }).catch((err: unknown) => {
    stop.release();
    throw err;
  });
  void stop.requested.then(() => door.stopping());
  const begun = await startWhenStoreAnswers({
    open: () => openConfiguredStore(ctx),
    start: (store) => startOn(store, plan, door),
    door,
    logger: ctx.logger,
    where: describeLocation(parseStoreUrl(ctx.config.db, ctx.config.dbSchema)),
    stopped: stop.requested,
  }).catch(async (err: unknown) => {
    await door.close();
    stop.release();
    throw err;
  });
  if (begun === 'stopped') {
    // Nothing ran yet; whatever the start still waits on (a database that does not answer) ends with the process.
    await door.close();
    ctx.logger.info('daemon stopped during its start');
    process.exit(EXIT.ok);
  }
  const { store } = begun;
  const { daemon, client } = begun.started;
  // A schedule over its quotas still runs (the ledger stops each run at a quota), but says so first.
  // The database away at this moment must not end a daemon already serving: the check is only a warning.
  const over = await scheduleProblems(store, ctx.config, jobs).catch(() => []);
  for (const problem of over) ctx.logger.warn({ problem }, `schedule over quota: ${problem}`);
  io.stdout.write(startedLine(daemon, jobs.filter((j) => j.enabled).length));
  await stop.requested;
  // A run still writing after the bound: exit without closing the store under it (its transaction
  // rolls back; the checkpoint of the last committed page stays).
  if (!(await daemon.stop())) process.exit(EXIT.failed);
  await client.close();
  await store.close();
  setExit(EXIT.ok);
}

/** What the start needs besides the store and the door. */
interface DaemonPlan {
  ctx: CommandContext;
  flags: DaemonFlags;
  jobs: ScheduledJob[];
  refused: RefusedJob[];
  receiver: Omit<ReceiverOptions, 'store' | 'logger'> | undefined;
  baseUrl: string;
}

/** One attempt at the start on an open store: the service checked, the budget read, the jobs scheduled. */
async function startOn(store: Store, plan: DaemonPlan, door: DaemonDoor): Promise<{ daemon: Daemon; client: ApiClient }> {
  const { ctx, flags, jobs } = plan;
  await checkService(store, plan.baseUrl, flags.force);
  const client = configuredClient(ctx, { gate: quotaGate(store, ctx.config.limits) });
  try {
    const budget = daemonBudget(ctx.config, store, jobs, flags.force);
    await budget.watch.refresh();
    const atStart = await startupRun(ctx.logger, plan.baseUrl, jobs, flags.runAtStart);
    const daemon = await startDaemon({
      store,
      client,
      logger: ctx.logger,
      jobs,
      receiver: plan.receiver,
      settings: syncSettings(ctx.config),
      http: { port: 0, host: flags.metricsHost, budget: () => budget.watch.current() },
      door,
      quotas: planQuotas(ctx.config.limits),
      progress: logProgress(ctx.logger),
      stopTimeoutMs: flags.stopTimeout * 1000,
      startupRun: atStart,
      startupBudget: budget.startup,
      switchService: flags.force,
      refused: plan.refused,
    });
    return { daemon, client };
  } catch (err) {
    await client.close();
    throw err;
  }
}

/**
 * The runs made at start, unless the service cannot be reached: then one warning per API family, and the
 * jobs wait for their schedules (the service may be back by then) rather than each retrying and failing now.
 */
async function startupRun(logger: Logger, baseUrl: string, jobs: readonly ScheduledJob[], wanted: StartupRun): Promise<StartupRun> {
  if (wanted === 'none') return wanted;
  let streams: StreamDef[];
  try {
    streams = jobs.filter((j) => j.enabled).flatMap((j) => jobStreams(j));
  } catch {
    return wanted; // a job naming an unknown stream: the daemon's start says so
  }
  const unreached = await unreachedFamilies(baseUrl, streams);
  for (const line of unreached) logger.warn(`${line}; no job runs at start, each waits for its schedule`);
  return unreached.length > 0 ? 'none' : wanted;
}

function startedLine(daemon: Daemon, enabled: number): string {
  const { next, startup } = daemon.health();
  const now = startup.filter((s) => s.state !== 'refused');
  const refused = startup.filter((s) => s.state === 'refused');
  const starting =
    (now.length ? `; running now: ${now.map((s) => s.job).join(', ')}` : '') +
    (refused.length
      ? `; refused at start (the month's schedule would be short; see the log): ${refused.map((s) => s.job).join(', ')}`
      : '');
  return (
    `ds-mirror daemon: ${counted(enabled, 'job')} scheduled${starting}; next ${next ? `${next.job} at ${next.at}` : 'run: none'}; ` +
    `health ${daemon.url}/healthz, metrics ${daemon.url}/metrics, status ${daemon.url}/status${daemon.receiverUrl ? `; receiver ${daemon.receiverUrl}` : ''}\n`
  );
}

/** The month's truth for /healthz, and the start-up runs' check (none under --force). */
function daemonBudget(config: Config, store: Store, jobs: readonly ScheduledJob[], force?: boolean) {
  const schedule = scheduleOf(jobs); // a job the daemon refuses is left out of the budget too
  const input = { store, settings: syncSettings(config), schedule, quotas: planQuotas(config.limits) };
  return { watch: watchBudget({ ...input, now: Date.now }), startup: force ? undefined : runFitter(input) };
}

function receiverOptions(config: Config, env: NodeJS.ProcessEnv): Omit<ReceiverOptions, 'store' | 'logger'> | undefined {
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
