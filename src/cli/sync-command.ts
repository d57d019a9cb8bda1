// `ds-mirror sync [streams...]`: one run over the chosen streams, with progress, a summary, and a
// clean stop (checkpoint kept) on SIGINT/SIGTERM, within --stop-timeout whatever its streams are doing,
// or when --max-requests is reached.
import type { Command } from 'commander';
// Not budget/index.js: its schedule projection loads cron, which a sync never needs.
import { planQuotas } from '../budget/plan-quotas.js';
import { quotaGate, type QuotaGate } from '../budget/quota-gate.js';
import { KeyRefusedError, type ClientStats } from '../client/index.js';
import { resolveStreams, type StreamDef } from '../catalog/index.js';
import type { SyncBudget } from '../mirror/sync-budget.js';
import { requireService } from '../config.js';
import type { Store, StreamRunStats } from '../store/types.js';
import type { SyncSettings } from '../sync/context.js';
import { syncSettings } from '../sync/settings.js';
import { runSync, type RunResult } from '../sync/engine.js';
import { EXIT, type CliIo, type SetExit } from './io.js';
import {
  commandContext,
  mirrorExists,
  openConfiguredStore,
  openMirrorToPlan,
  positiveNumber,
  type CommandContext,
  configuredClient,
  wholeNumber,
} from './context.js';
import { onStopSignal } from './stop-signal.js';
import { checkService } from '../sync/mirrored-service.js';
import { describeStoreError } from '../store/storage-errors.js';
import { logProgress, terminalProgress } from './progress-bars.js';
import { runEstimates } from '../mirror/progress-estimates.js';
import { runSummary, SUMMARY_LEGEND } from './run-summary.js';
import { unreachedFamilies } from '../mirror/reach-service.js';
import { recordJobs } from '../scheduler/record-jobs.js';
import { count, counted } from '../figures.js';

interface SyncFlags {
  full?: boolean;
  plan?: boolean;
  maxRequests?: number;
  select?: string[];
  metricProjects?: string;
  pageWindow?: number;
  progress: boolean;
  force?: boolean;
  stopTimeout: number;
  confirmDeletions?: boolean;
}

export function syncCommand(program: Command, io: CliIo, setExit: SetExit): void {
  program
    .command('sync')
    .description(
      'Mirror streams into the database (default: every stream that is not opt-in). Names or groups: all, v1, monitoring, fanouts, or stream names from `ds-mirror streams`.',
    )
    .argument('[streams...]', 'streams or groups to sync')
    .option('--full', 'ignore checkpoints and date windows: a complete pass that also detects deletions')
    .option('--plan', 'print the requests the run would make, and make none')
    .option('--max-requests <n>', 'stop cleanly at a checkpoint after n HTTP requests', positiveNumber('--max-requests'))
    .option('--select <parent=selection>', 'fan-out parents: assets=top:100, charts=all, projects=bitcoin,ethereum (repeatable)', collect)
    .option('--metric-projects <names>', 'project names for metric-series (comma-separated)')
    .option('--page-window <n>', 'pages of one list fetched at once (default 4)', positiveNumber('--page-window'))
    .option('--no-progress', 'no progress bars, even on a terminal')
    .option(
      '--force',
      "sync even though this mirror holds another service (it then records this one), or though the run would leave the rest of the month's schedule short",
    )
    .option(
      '--stop-timeout <seconds>',
      'on SIGTERM/SIGINT, how long the pages in flight may take to commit before the process exits anyway',
      wholeNumber('--stop-timeout'),
      30,
    )
    .option(
      '--confirm-deletions',
      'delete what a complete pass was not served even beyond maxDeleteShare or under renamed keys (never when the list moved)',
    )
    .action(async (names: string[], flags: SyncFlags, command: Command) => {
      const ctx = commandContext(command, io);
      const asked = resolveStreams(names);
      const settings = syncSettings(ctx.config, flags);
      const service = flags.plan ? null : requireService(ctx.config); // before any file is touched
      // Before a new mirror is made, a wrong address is said: a run that can reach nothing makes no file. An
      // existing mirror is first asked whether it holds this service (the more useful line when it does not).
      const reached = service !== null && !mirrorExists(ctx);
      if (reached && !(await reachable(io, service.baseUrl, asked))) return setExit(EXIT.failed);
      // --plan reads the mirror there is, and makes none where there is none yet.
      const store = await (flags.plan ? openMirrorToPlan(ctx) : openConfiguredStore(ctx));
      let finish: Finish | undefined;
      try {
        const at = new Date();
        const budget = await import('../mirror/sync-budget.js');
        const plan = await budget.syncBudget(ctx.config, store, settings, asked, at);
        const streams = plan.readings.map((r) => r.reads);
        if (!service) return void io.stdout.write(await planOutput(ctx, store, settings, plan, at));
        const refuse = () => (flags.force ? Promise.resolve(null) : budget.runRefusal(ctx.config, store, settings, plan, at));
        finish = await syncOnce({ ctx, io, flags, store, settings, streams, service, refuse, reached });
      } finally {
        // Closing is the run's last write (SQLite's checkpoint moves the log into the file): said in the run's line.
        const closeFailure = await closeStore(store, finish !== undefined);
        if (finish) setExit(finish(closeFailure));
      }
    });
}

/** Closes the store; a failure is returned, to be said in the run's line (`withRun`), or else thrown. */
async function closeStore(store: Store, withRun: boolean): Promise<string | null> {
  try {
    await store.close();
    return null;
  } catch (err) {
    if (!withRun) throw err;
    return `the mirror could not be closed: ${describeStoreError(err, store.location)}`;
  }
}

/** Reports how a run ended, once its store is closed (`closeFailure`: why closing it failed), and gives the exit code. */
type Finish = (closeFailure: string | null) => number;

interface SyncJob {
  ctx: CommandContext;
  io: CliIo;
  flags: SyncFlags;
  store: Store;
  settings: SyncSettings;
  streams: StreamDef[];
  service: ReturnType<typeof requireService>;
  /** The one line refusing a run that would leave the month's schedule short (null: it may run). */
  refuse: () => Promise<string | null>;
  /** The service was reached before the mirror was opened. */
  reached: boolean;
}

/** Loaded only for --plan: the plan's output reaches the scheduler's modules (budget-command), and prom-client with them. */
async function planOutput(ctx: CommandContext, store: Store, settings: SyncSettings, budget: SyncBudget, at: Date): Promise<string> {
  const [{ planRun }, { renderPlan }, { periodAfter }] = await Promise.all([
    import('../budget/run-plan.js'),
    import('./plan-output.js'),
    import('../mirror/sync-budget.js'),
  ]);
  const streams = budget.readings.map((r) => r.reads);
  const quotas = planQuotas(ctx.config.limits);
  const plan = await planRun(store, settings, streams, ctx.config.baseUrl || '{base_url}', quotas, at);
  const period = await periodAfter(store, settings, budget, quotas, plan, at);
  return renderPlan(plan, budget.readings, period);
}

/** One run with progress; returns how to report it. */
async function syncOnce({ ctx, io, flags, store, settings, streams, service, refuse, reached }: SyncJob): Promise<Finish> {
  const { config, logger } = ctx;
  await checkService(store, service.baseUrl, flags.force);
  // The jobs as configured, for v_jobs and v_streams (which job keeps a stream, whether it is stale).
  const { configuredJobs } = await import('../mirror/sync-budget.js');
  await recordJobs(store, configuredJobs(ctx.config), new Date()).catch(() => {});
  const refusal = await refuse();
  if (refusal) {
    io.stderr.write(`${refusal}\n`);
    return () => EXIT.stopped;
  }
  if (!reached && !(await reachable(io, service.baseUrl, streams))) return () => EXIT.failed;
  const gate = quotaGate(store, config.limits);
  const client = configuredClient(ctx, { gate, maxRequests: flags.maxRequests });
  const stop = onStopSignal(
    logger,
    flags.stopTimeout * 1000,
    EXIT.stopped,
    'stopping: the pages in flight commit, then the run ends at its checkpoint',
  );
  const estimates = await runEstimates(
    store,
    streams.map((d) => d.name),
    settings.mode,
    service.baseUrl,
  );
  const progress = flags.progress && io.stderr.isTTY ? terminalProgress(io.stderr, { estimates }) : logProgress(logger, { estimates });
  let closed: Promise<string | null> | undefined;
  // Closing the client settles the usage ledger (the reservations not sent go back): a write of the run too.
  const closeClient = () =>
    (closed ??= client.close().then(
      () => null,
      (err: unknown) => `the usage ledger could not be settled: ${describeStoreError(err, store.location)}`,
    ));
  try {
    const result = await runSync({ client, store, logger, settings, streams, signal: stop.signal, progress, switchService: flags.force });
    progress.stop();
    const settleFailure = await closeClient();
    return (closeFailure) => {
      const error = result.error ?? settleFailure ?? closeFailure ?? undefined;
      return reportRun(io, { ...result, error }, client.stats, gate, flags.maxRequests);
    };
  } finally {
    progress.stop();
    stop.release();
    await closeClient();
  }
}

/** Whether the service can be reached at all; if not, one line per API family of the streams asked. */
async function reachable(io: CliIo, baseUrl: string, streams: readonly StreamDef[]): Promise<boolean> {
  const unreached = await unreachedFamilies(baseUrl, streams);
  for (const line of unreached) io.stderr.write(`ds-mirror: ${line}\n`);
  return unreached.length === 0;
}

/**
 * Prints how the run ended and returns its exit code: one line when every stream was left to another worker,
 * else the summary. `result.error`: a write after the streams' failed, so the run failed.
 */
function reportRun(io: CliIo, result: RunResult, stats: ClientStats, gate: QuotaGate, maxRequests: number | undefined): number {
  const skipped = result.streams.filter((s) => s.outcome === 'skipped');
  if (skipped.length > 0 && skipped.length === result.streams.length && !result.error) {
    // The workers that hold them (the error says `... by another worker (<owner>, lease until <time>); skipped`).
    const holders = [...new Set(skipped.map((s) => / \(([^,)]+)[^)]*\); skipped$/.exec(s.error ?? '')?.[1] ?? 'unknown'))];
    io.stderr.write(
      `ds-mirror: nothing was synced: every stream asked (${skipped.length}) is being synced by another worker ` +
        `(${holders.join('; ')}); run again once it has finished\n`,
    );
    return EXIT.stopped;
  }
  const outcome = result.error ? 'failed' : result.outcome;
  io.stdout.write(runReport({ ...result, outcome }, stats, gate, maxRequests));
  if (outcome === 'failed') return result.error ? EXIT.failed : failedExit(result.streams);
  if (outcome === 'stopped') return EXIT.stopped;
  return result.streams.some((s) => (s.held ?? 0) > 0 || (s.heldRows ?? 0) > 0) ? EXIT.held : EXIT.ok;
}

/** A run whose every failed stream failed on a change of the service's shape exits 5, another failure 1. */
function failedExit(streams: readonly StreamRunStats[]): number {
  const failed = streams.filter((s) => s.outcome === 'failed');
  return failed.every((s) => s.errorCode === 'DS_DRIFT') ? EXIT.drift : EXIT.failed;
}

/** The summary table, the run's line, one line per spent quota, and why a stopped run stopped. */
function runReport(result: RunResult, stats: ClientStats, gate: QuotaGate, maxRequests: number | undefined): string {
  // A spent quota or a refused key is said once, below the table; its rows say only that they stopped for it.
  const keys = [...stats.stopped.values()].filter((e) => e instanceof KeyRefusedError);
  const saidBelow = new Map([
    ...[...gate.refused.values()].map((q) => [q.message, 'quota spent'] as const),
    ...keys.map((e) => [e.message, 'key refused'] as const),
  ]);
  const lines = [
    runSummary(result.streams, saidBelow),
    SUMMARY_LEGEND,
    `run ${result.runId}: ${result.outcome}${result.error ? ` (${result.error})` : ''}, ${counted(stats.requests, 'request')} sent (${count(stats.retries)} of them ${stats.retries === 1 ? 'a retry' : 'retries'})`,
  ];
  // Which quota, and when it renews (the streams' rows say where each stopped).
  for (const refused of gate.refused.values()) lines.push(`quota: ${refused.message}; the next run after that resumes at the checkpoints`);
  for (const refused of keys) lines.push(`key: ${refused.message}`);
  const held = result.streams.filter((s) => (s.held ?? 0) > 0);
  if (held.length > 0) {
    const rows = held.reduce((n, s) => n + (s.held ?? 0), 0);
    lines.push(
      `deletions held back: ${counted(rows, 'row')} of ${held.map((s) => s.stream).join(', ')} (see above and \`ds-mirror status\`)`,
    );
  }
  const kept = result.streams.filter((s) => (s.heldRows ?? 0) > 0);
  if (kept.length > 0) {
    const rows = kept.reduce((n, s) => n + (s.heldRows ?? 0), 0);
    lines.push(
      `rows kept as they were: ${counted(rows, 'row')} of ${kept.map((s) => s.stream).join(', ')} came without a field they hold; a pass ` +
        'hours later that agrees, or --confirm-deletions, writes them (see above and `ds-mirror schema --changes`)',
    );
  }
  if (result.outcome === 'stopped' && gate.refused.size === 0) {
    const why = maxRequests !== undefined && stats.requests >= maxRequests ? `--max-requests ${maxRequests} reached` : 'stopped';
    lines.push(`${why}: stopped cleanly at a checkpoint; the next run resumes there`);
  }
  return `${lines.join('\n')}\n`;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
