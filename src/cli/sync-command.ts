// `ds-mirror sync [streams...]`: one run over the chosen streams, with progress, a summary, and a
// clean stop (checkpoint kept) on SIGINT/SIGTERM or when --max-requests is reached.
import type { Command } from 'commander';
import { createClient } from '../client/index.js';
import { resolveStreams } from '../catalog/index.js';
import { requireService } from '../config.js';
import { syncSettings } from '../sync/settings.js';
import { runSync } from '../sync/engine.js';
import { planRun } from '../sync/plan.js';
import { EXIT, type CliIo } from '../cli.js';
import type { SetExit } from './commands.js';
import { commandContext, openConfiguredStore, wholeNumber } from './context.js';
import { logProgress, terminalProgress } from './progress-bars.js';
import { formatTable } from './table.js';

interface SyncFlags {
  full?: boolean;
  plan?: boolean;
  maxRequests?: number;
  select?: string[];
  metricProjects?: string;
  pageWindow?: number;
  progress: boolean;
}

export function syncCommand(program: Command, io: CliIo, setExit: SetExit): void {
  program
    .command('sync')
    .description('Mirror streams into the database (default: every stream that is not opt-in). Names or groups: all, v1, fanouts, or stream names from `ds-mirror streams`.')
    .argument('[streams...]', 'streams or groups to sync')
    .option('--full', 'ignore checkpoints and date windows: a complete pass that also detects deletions')
    .option('--plan', 'print the requests the run would make, and make none')
    .option('--max-requests <n>', 'stop cleanly at a checkpoint after n HTTP requests', wholeNumber('--max-requests'))
    .option('--select <parent=selection>', 'fan-out parents: assets=top:100, charts=all, projects=bitcoin,ethereum (repeatable)', collect, [])
    .option('--metric-projects <names>', 'project names for metric-series (comma-separated)')
    .option('--page-window <n>', 'pages of one list fetched at once (default 4)', wholeNumber('--page-window'))
    .option('--no-progress', 'no progress bars, even on a terminal')
    .action(async (names: string[], flags: SyncFlags, command: Command) => {
      const ctx = commandContext(command, io);
      const streams = resolveStreams(names);
      const settings = syncSettings(ctx.config, flags);
      const store = await openConfiguredStore(ctx);
      try {
        if (flags.plan) {
          const plan = await planRun(store, settings, streams, ctx.config.baseUrl || '{base_url}');
          io.stdout.write(`${formatTable(['stream', 'requests', 'first request'], plan.map((p) => [p.stream, `${p.atLeast ? '≥' : ''}${p.count}`, p.request]))}\n`);
          const total = plan.reduce((n, p) => n + p.count, 0);
          io.stdout.write(`\n${plan.some((p) => p.atLeast) ? 'at least ' : ''}${total} requests (no request was made)\n`);
          return;
        }
        const service = requireService(ctx.config);
        const client = createClient({
          ...service,
          limits: ctx.config.limits,
          timeoutMs: ctx.config.timeoutMs,
          retries: ctx.config.retries,
          maxRequests: flags.maxRequests,
          maxResponseBytes: ctx.config.maxResponseBytes,
          logger: ctx.logger,
        });
        const stop = new AbortController();
        const onSignal = () => {
          ctx.logger.warn('stopping: the pages in flight commit, then the run ends at its checkpoint');
          stop.abort();
        };
        process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
        const bars = flags.progress && io.stderr.isTTY ? terminalProgress(io.stderr) : null;
        try {
          const result = await runSync({
            client, store, logger: ctx.logger, settings, streams, signal: stop.signal, progress: bars ?? logProgress(ctx.logger),
          });
          bars?.stop();
          io.stdout.write(`${summary(result.streams)}\n`);
          io.stdout.write(`run ${result.runId}: ${result.outcome}, ${client.stats.requests} requests, ${client.stats.retries} retries\n`);
          if (result.outcome === 'stopped') {
            const why = flags.maxRequests !== undefined && client.stats.requests >= flags.maxRequests ? `--max-requests ${flags.maxRequests} reached` : 'stopped';
            io.stdout.write(`${why}: stopped cleanly at a checkpoint; the next run resumes there\n`);
          }
          setExit(result.outcome === 'failed' ? EXIT.failed : result.outcome === 'stopped' ? EXIT.stopped : EXIT.ok);
        } finally {
          bars?.stop();
          process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
          await client.close();
        }
      } finally {
        await store.close();
      }
    });
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function summary(streams: readonly { stream: string; fetched: number; inserted: number; updated: number; unchanged: number; deleted: number; errors: number; requests: number; durationMs: number; outcome: string; error?: string | null }[]): string {
  return formatTable(
    ['stream', 'fetched', 'inserted', 'updated', 'unchanged', 'deleted', 'errors', 'requests', 'seconds', 'outcome'],
    streams.map((s) => [s.stream, s.fetched, s.inserted, s.updated, s.unchanged, s.deleted, s.errors, s.requests, (s.durationMs / 1000).toFixed(1), s.error ? `${s.outcome}: ${s.error}` : s.outcome]),
  );
}
