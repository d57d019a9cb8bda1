// `ds-mirror backfill alerts [--view ...] [--since ...]`: fills alert_history from each view's matching
// events, covering any time the webhook receiver missed: one alert per development the view's own
// predicates accept. It runs the monitoring-views stream (same lease, same run record) over every match,
// or only the developments since a date.
import type { Command } from 'commander';
import { splitList } from '../config.js';
import { ConfigError } from '../errors.js';
import { count, counted } from '../figures.js';
import { openMirror, type ViewMatchCounts } from '../mirror/index.js';
import { EXIT, type CliIo, type SetExit } from './io.js';
import { commandContext } from './context.js';
import { logProgress } from './progress-bars.js';

interface BackfillFlags {
  view?: string[];
  force?: boolean;
  since?: string;
}

export function backfillCommand(program: Command, io: CliIo, setExit: SetExit): void {
  program
    .command('backfill')
    .description('Fill history the webhook receiver may have missed')
    .command('alerts')
    .description("Fill alert_history from each monitoring view's matching events (default: the configured views, every match)")
    .option(
      '--view <idOrSlug>',
      'a view id or slug-with-id-prefix, or several comma-separated (repeatable; default DS_MONITORING_VIEWS / monitoring.views)',
      collect,
    )
    .option('--force', 'backfill even though this mirror holds another service (it then records this one)')
    .option(
      '--since <date>',
      'only developments started at or after this date, of events started since then (RFC 3339, YYYY-MM-DD or Unix seconds)',
    )
    .action((flags: BackfillFlags, command: Command) => backfillAlerts(flags, command, io, setExit));
}

/** One backfill run over the views, with its summary and exit code. */
async function backfillAlerts(flags: BackfillFlags, command: Command, io: CliIo, setExit: SetExit): Promise<void> {
  const ctx = commandContext(command, io);
  const mirror = openMirror(ctx.config, { logger: ctx.logger });
  const views = flags.view ?? mirror.settings.monitoring.views;
  if (views.length === 0) {
    throw new ConfigError(
      'no monitoring view to backfill: give --view <id> or set DS_MONITORING_VIEWS (or "monitoring.views" in the config file)',
    );
  }
  const progress = logProgress(ctx.logger);
  try {
    const source = flags.view ? '--view' : undefined;
    const run = await mirror.backfill({ views, since: flags.since, source, force: flags.force, progress });
    progress.stop();
    const s = run.streams[0];
    io.stdout.write(`${backfillSummary(views.length, flags.since, run.viewMatches, s.requests)}\n`);
    if (s.error) io.stderr.write(`ds-mirror: ${s.error}\n`);
    setExit(s.outcome === 'success' ? EXIT.ok : s.outcome === 'stopped' ? EXIT.stopped : EXIT.failed);
  } finally {
    progress.stop();
    await mirror.close();
  }
}

/**
 * Every record read accounted for (the views, each matching event, each record without an id), and every
 * development of those events: an alert (new or already known), excluded by the view's predicates, or
 * started before --since.
 */
export function backfillSummary(asked: number, since: string | undefined, t: ViewMatchCounts, requests: number): string {
  const read = t.views + t.events + t.unusable;
  const alerts = t.newAlerts + t.known;
  const developments = alerts + t.excluded + t.beforeSince;
  const parts = [
    `${counted(alerts, 'alert')} (${count(t.newAlerts)} new, ${count(t.known)} already known)`,
    `${count(t.excluded)} not matching the view's predicates`,
  ];
  if (t.beforeSince > 0) parts.push(`${count(t.beforeSince)} started before ${since}`);
  const unusable = t.unusable > 0 ? `, ${count(t.unusable)} without an event id (not kept)` : '';
  const completed = t.completed > 0 ? `; ${counted(t.completed, 'webhook delivery', 'webhook deliveries')} set aside completed` : '';
  return (
    `backfill of ${t.views === asked ? '' : `${count(t.views)} of `}${counted(asked, 'view')}${since ? ` since ${since}` : ''}: ${counted(read, 'record')} read, ` +
    `${counted(t.views, 'view')} and ${counted(t.events, 'matching event')}${unusable}; of their ${counted(developments, 'development')}: ${parts.join(', ')}; ` +
    `${counted(requests, 'request')}${completed}`
  );
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), ...splitList(value)];
}
