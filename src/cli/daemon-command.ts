// `ds-mirror daemon`: runs the scheduled jobs and (when the config has a "receiver" section) the webhook
// receiver in one process, with /healthz and /metrics. SIGTERM or SIGINT stops it cleanly within
// --stop-timeout; a second signal exits at once. Secrets come from the environment or files only.
import { Option, type Command } from 'commander';
import { openMirror, type MirrorDaemon } from '../mirror/index.js';
import { STARTUP_RUNS, type StartupRun } from '../scheduler/index.js';
import { EXIT, type CliIo, type SetExit } from './io.js';
import { commandContext, wholeNumber } from './context.js';
import { onStopSignal } from './stop-signal.js';
import { logProgress } from './progress-bars.js';
import { DEFAULT_METRICS_PORT } from '../mirror/configured.js';
import { counted } from '../figures.js';

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

/** Starts the mirror's daemon (its HTTP door first, then the store and the jobs behind it), then waits for SIGTERM/SIGINT. */
async function runDaemon(flags: DaemonFlags, command: Command, io: CliIo, setExit: SetExit): Promise<void> {
  const ctx = commandContext(command, io);
  const mirror = openMirror(ctx.config, { logger: ctx.logger });
  const stop = onStopSignal(ctx.logger, flags.stopTimeout * 1000, EXIT.failed, 'stopping: no new runs; the pages in flight commit');
  const daemon = await mirror
    .daemon({
      metricsPort: flags.metricsPort,
      metricsHost: flags.metricsHost,
      stopTimeoutMs: flags.stopTimeout * 1000,
      receiver: flags.receiver,
      runAtStart: flags.runAtStart,
      force: flags.force,
      env: io.env,
      progress: logProgress(ctx.logger),
      stopped: stop.requested,
    })
    .catch((err: unknown) => {
      stop.release();
      throw err;
    });
  // Stopped during the start: whatever it still waits on (a database that does not answer) ends with the process.
  if (!daemon) process.exit(EXIT.ok);
  io.stdout.write(startedLine(daemon));
  await stop.requested;
  // A run still writing after the bound: exit without closing the store under it (its transaction
  // rolls back; the checkpoint of the last committed page stays).
  if (!(await daemon.stop())) process.exit(EXIT.failed);
  setExit(EXIT.ok);
}

function startedLine(daemon: MirrorDaemon): string {
  const { next, startup, jobs } = daemon.health();
  const enabled = jobs.filter((j) => j.enabled).length;
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
