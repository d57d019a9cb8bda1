// `ds-mirror sync [streams...]`: one run over the chosen streams, with progress, a summary, and a
// clean stop (checkpoint kept) on SIGINT/SIGTERM, within --stop-timeout whatever its streams are doing,
// or when --max-requests is reached. The mirror makes the run (src/mirror/); this prints what it says.
import type { Command } from 'commander';
import type { StreamRunStats } from '../store/types.js';
import { openMirror, type Mirror, type SyncRefused, type SyncRun } from '../mirror/index.js';
import { describeLocation, describeStoreError, parseStoreUrl } from '../store/index.js';
import { EXIT, type CliIo, type SetExit } from './io.js';
import { commandContext, positiveNumber, type CommandContext, wholeNumber } from './context.js';
import { onStopSignal } from './stop-signal.js';
import { logProgress, terminalProgress } from './progress-bars.js';
import { runSummary, SUMMARY_LEGEND } from './run-summary.js';
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
      const mirror = openMirror(ctx.config, { logger: ctx.logger });
      if (flags.plan) return planOnly(mirror, names, flags, io);
      let finish: Finish | undefined;
      try {
        finish = await syncOnce(ctx, mirror, names, flags, io);
      } finally {
        // Closing is the run's last write (SQLite's checkpoint moves the log into the file): said in the run's line.
        const closeFailure = await closeMirror(mirror, finish !== undefined);
        if (finish) setExit(finish(closeFailure));
      }
    });
}

/** --plan: the plan's lines, from the mirror there is (none is made); the plan's output loads only here. */
async function planOnly(mirror: Mirror, names: string[], flags: SyncFlags, io: CliIo): Promise<void> {
  try {
    const { plan, readings, period } = await mirror.plan({ ...flags, streams: names });
    const { renderPlan } = await import('./plan-output.js');
    io.stdout.write(renderPlan(plan, readings, period));
  } finally {
    await mirror.close();
  }
}

/** Closes the mirror; a failure is returned, to be said in the run's line (`withRun`), or else thrown. */
async function closeMirror(mirror: Mirror, withRun: boolean): Promise<string | null> {
  try {
    await mirror.close();
    return null;
  } catch (err) {
    if (!withRun) throw err;
    const where = describeLocation(parseStoreUrl(mirror.config.db, mirror.config.dbSchema));
    return `the mirror could not be closed: ${describeStoreError(err, where)}`;
  }
}

/** Reports how a run ended, once its store is closed (`closeFailure`: why closing it failed), and gives the exit code. */
type Finish = (closeFailure: string | null) => number;

/** One run with progress and the stop signal; returns how to report it. */
async function syncOnce(ctx: CommandContext, mirror: Mirror, names: string[], flags: SyncFlags, io: CliIo): Promise<Finish> {
  const stop = onStopSignal(
    ctx.logger,
    flags.stopTimeout * 1000,
    EXIT.stopped,
    'stopping: the pages in flight commit, then the run ends at its checkpoint',
  );
  let progress: ReturnType<typeof logProgress> | undefined;
  try {
    const report = await mirror.sync({
      ...flags,
      streams: names,
      signal: stop.signal,
      progress: (estimates) =>
        (progress =
          flags.progress && io.stderr.isTTY ? terminalProgress(io.stderr, { estimates }) : logProgress(ctx.logger, { estimates })),
    });
    progress?.stop();
    if (report.refused) return refused(io, report);
    const run = report;
    return (closeFailure) => reportRun(io, { ...run, error: run.error ?? closeFailure ?? undefined }, flags.maxRequests);
  } finally {
    progress?.stop();
    stop.release();
  }
}

/** A run refused before its first request: its lines, and the exit code (a service not reached: 1; the schedule: 3). */
function refused(io: CliIo, { refused }: SyncRefused): Finish {
  if (refused.why === 'schedule') {
    io.stderr.write(`${refused.lines.join('\n')}\n`);
    return () => EXIT.stopped;
  }
  for (const line of refused.lines) io.stderr.write(`ds-mirror: ${line}\n`);
  return () => EXIT.failed;
}

/**
 * Prints how the run ended and returns its exit code: one line when every stream was left to another worker,
 * else the summary. `run.error`: a write after the streams' failed, so the run failed.
 */
function reportRun(io: CliIo, run: SyncRun, maxRequests: number | undefined): number {
  if (run.heldElsewhere && !run.error) {
    const skipped = run.streams.length;
    io.stderr.write(
      `ds-mirror: nothing was synced: every stream asked (${skipped}) is being synced by another worker ` +
        `(${run.heldElsewhere.join('; ')}); run again once it has finished\n`,
    );
    return EXIT.stopped;
  }
  const outcome = run.error ? 'failed' : run.outcome;
  io.stdout.write(runReport({ ...run, outcome }, maxRequests));
  if (outcome === 'failed') return run.error ? EXIT.failed : failedExit(run.streams);
  if (outcome === 'stopped') return EXIT.stopped;
  return run.streams.some((s) => (s.held ?? 0) > 0 || (s.heldRows ?? 0) > 0) ? EXIT.held : EXIT.ok;
}

/** A run whose every failed stream failed on a change of the service's shape exits 5, another failure 1. */
function failedExit(streams: readonly StreamRunStats[]): number {
  const failed = streams.filter((s) => s.outcome === 'failed');
  return failed.every((s) => s.errorCode === 'DS_DRIFT') ? EXIT.drift : EXIT.failed;
}

/** The summary table, the run's line, one line per spent quota, and why a stopped run stopped. */
function runReport(run: SyncRun, maxRequests: number | undefined): string {
  // A spent quota or a refused key is said once, below the table; its rows say only that they stopped for it.
  const saidBelow = new Map([
    ...run.quotasSpent.map((q) => [q, 'quota spent'] as const),
    ...run.keysRefused.map((k) => [k, 'key refused'] as const),
  ]);
  const lines = [
    runSummary(run.streams, saidBelow),
    SUMMARY_LEGEND,
    `run ${run.runId}: ${run.outcome}${run.error ? ` (${run.error})` : ''}, ${counted(run.requests, 'request')} sent (${count(run.retries)} of them ${run.retries === 1 ? 'a retry' : 'retries'})`,
  ];
  // Which quota, and when it renews (the streams' rows say where each stopped).
  for (const quota of run.quotasSpent) lines.push(`quota: ${quota}; the next run after that resumes at the checkpoints`);
  for (const key of run.keysRefused) lines.push(`key: ${key}`);
  const held = run.streams.filter((s) => (s.held ?? 0) > 0);
  if (held.length > 0) {
    const rows = held.reduce((n, s) => n + (s.held ?? 0), 0);
    lines.push(
      `deletions held back: ${counted(rows, 'row')} of ${held.map((s) => s.stream).join(', ')} (see above and \`ds-mirror status\`)`,
    );
  }
  const kept = run.streams.filter((s) => (s.heldRows ?? 0) > 0);
  if (kept.length > 0) {
    const rows = kept.reduce((n, s) => n + (s.heldRows ?? 0), 0);
    lines.push(
      `rows kept as they were: ${counted(rows, 'row')} of ${kept.map((s) => s.stream).join(', ')} came without a field they hold; a pass ` +
        'hours later that agrees, or --confirm-deletions, writes them (see above and `ds-mirror schema --changes`)',
    );
  }
  if (run.outcome === 'stopped' && run.quotasSpent.length === 0) {
    const why = run.maxRequestsReached ? `--max-requests ${maxRequests} reached` : 'stopped';
    lines.push(`${why}: stopped cleanly at a checkpoint; the next run resumes there`);
  }
  return `${lines.join('\n')}\n`;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
