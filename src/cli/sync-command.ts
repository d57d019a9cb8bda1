// `ds-mirror sync [streams...]`: one run over the chosen streams, with progress, a summary, and a
// clean stop (checkpoint kept) on SIGINT/SIGTERM or when --max-requests is reached.
import type { Command } from 'commander';
import type { Logger } from 'pino';
// Not budget/index.js: its schedule projection loads cron, which a sync never needs.
import { planQuotas } from '../budget/plan-quotas.js';
import { quotaGate, type QuotaGate } from '../budget/quota-gate.js';
import type { ClientStats } from '../client/index.js';
import { resolveStreams, type StreamDef } from '../catalog/index.js';
import { requireService } from '../config.js';
import type { Store, StreamRunStats } from '../store/types.js';
import type { SyncSettings } from '../sync/context.js';
import { syncSettings } from '../sync/settings.js';
import { runSync, type RunResult } from '../sync/engine.js';
import { EXIT, type CliIo, type SetExit } from './io.js';
import { commandContext, openConfiguredStore, positiveNumber, type CommandContext, configuredClient } from './context.js';
import { checkService } from '../sync/mirrored-service.js';
import { logProgress, terminalProgress } from './progress-bars.js';
import { runEstimates } from './progress-estimates.js';
import { unreachedFamilies } from './reach-service.js';
import { formatTable } from './table.js';

interface SyncFlags {
  full?: boolean;
  plan?: boolean;
  maxRequests?: number;
  select?: string[];
  metricProjects?: string;
  pageWindow?: number;
  progress: boolean;
  force?: boolean;
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
    .option('--force', 'sync even though this mirror holds another service (it then records this one)')
    .action(async (names: string[], flags: SyncFlags, command: Command) => {
      const ctx = commandContext(command, io);
      const streams = resolveStreams(names);
      const settings = syncSettings(ctx.config, flags);
      const service = flags.plan ? null : requireService(ctx.config); // before any file is touched
      const store = await openConfiguredStore(ctx);
      try {
        if (service) setExit(await syncOnce({ ctx, io, flags, store, settings, streams, service }));
        else io.stdout.write(await planOutput(ctx, store, settings, streams));
      } finally {
        await store.close();
      }
    });
}

interface SyncJob {
  ctx: CommandContext;
  io: CliIo;
  flags: SyncFlags;
  store: Store;
  settings: SyncSettings;
  streams: StreamDef[];
  service: ReturnType<typeof requireService>;
}

/** Loaded only for --plan: the plan's output reaches the scheduler's modules (budget-command), and prom-client with them. */
async function planOutput(ctx: CommandContext, store: Store, settings: SyncSettings, streams: StreamDef[]): Promise<string> {
  const [{ planRun }, { renderPlan }] = await Promise.all([import('../budget/run-plan.js'), import('./plan-output.js')]);
  const plan = await planRun(store, settings, streams, ctx.config.baseUrl || '{base_url}', planQuotas(ctx.config.limits), new Date());
  return renderPlan(plan);
}

/** One run with progress and a summary; returns the exit code. */
async function syncOnce({ ctx, io, flags, store, settings, streams, service }: SyncJob): Promise<number> {
  const { config, logger } = ctx;
  await checkService(store, service.baseUrl, flags.force);
  const unreached = await unreachedFamilies(service.baseUrl, streams);
  for (const line of unreached) io.stderr.write(`ds-mirror: ${line}\n`);
  if (unreached.length > 0) return EXIT.failed;
  const gate = quotaGate(store, config.limits);
  const client = configuredClient(ctx, { gate, maxRequests: flags.maxRequests });
  const stop = stopOnSignal(logger);
  const estimates = await runEstimates(
    store,
    streams.map((d) => d.name),
    settings.mode,
    service.baseUrl,
  );
  const progress = flags.progress && io.stderr.isTTY ? terminalProgress(io.stderr, { estimates }) : logProgress(logger, { estimates });
  try {
    const result = await runSync({ client, store, logger, settings, streams, signal: stop.signal, progress, switchService: flags.force });
    progress.stop();
    io.stdout.write(runReport(result, client.stats, gate, flags.maxRequests));
    return result.outcome === 'failed' ? EXIT.failed : result.outcome === 'stopped' ? EXIT.stopped : EXIT.ok;
  } finally {
    progress.stop();
    stop.release();
    await client.close();
  }
}

/** SIGINT/SIGTERM end the run at its checkpoint: the pages in flight commit first. */
function stopOnSignal(logger: Logger): { signal: AbortSignal; release: () => void } {
  const stop = new AbortController();
  const onSignal = () => {
    logger.warn('stopping: the pages in flight commit, then the run ends at its checkpoint');
    stop.abort();
  };
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  return { signal: stop.signal, release: () => void process.off('SIGINT', onSignal).off('SIGTERM', onSignal) };
}

/** The summary table, the run's line, one line per spent quota, and why a stopped run stopped. */
function runReport(result: RunResult, stats: ClientStats, gate: QuotaGate, maxRequests: number | undefined): string {
  // A spent quota is said once, below the table; its rows say only that they stopped for it.
  const quotas = new Set([...gate.refused.values()].map((q) => q.message));
  const lines = [
    summary(result.streams, quotas),
    `run ${result.runId}: ${result.outcome}, ${stats.requests} requests, ${stats.retries} retries`,
  ];
  // Which quota, and when it renews (the streams' rows say where each stopped).
  for (const refused of gate.refused.values()) lines.push(`quota: ${refused.message}; the next run after that resumes at the checkpoints`);
  if (result.outcome === 'stopped' && gate.refused.size === 0) {
    const why = maxRequests !== undefined && stats.requests >= maxRequests ? `--max-requests ${maxRequests} reached` : 'stopped';
    lines.push(`${why}: stopped cleanly at a checkpoint; the next run resumes there`);
  }
  return `${lines.join('\n')}\n`;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function summary(streams: readonly StreamRunStats[], quotas: ReadonlySet<string> = new Set()): string {
  return formatTable(
    ['stream', 'fetched', 'inserted', 'updated', 'unchanged', 'deleted', 'errors', 'requests', 'seconds', 'outcome'],
    streams.map((s) => [
      s.stream,
      s.fetched,
      s.inserted,
      s.updated,
      s.unchanged,
      s.deleted,
      s.errors,
      s.requests,
      (s.durationMs / 1000).toFixed(1),
      outcomeNote(s, quotas),
    ]),
  );
}

/** The outcome with what a person should know: the error, a notice, parents with no record upstream. */
export function outcomeNote(s: StreamRunStats, quotas: ReadonlySet<string> = new Set()): string {
  const error = s.error && [...quotas].some((q) => s.error!.includes(q)) ? 'quota spent (see below)' : s.error;
  const notes = [error, s.notice, s.absent ? `${s.absent} parent(s) with no record upstream` : null].filter(Boolean);
  return notes.length ? `${s.outcome}: ${notes.join('; ')}` : s.outcome;
}
