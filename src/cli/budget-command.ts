// `ds-mirror budget`: what the plan allows, what was used (every worker of this database together),
// what the configured schedule will use in a month and what that buys: how old each stream can get.
// Exit 1 when the schedule does not fit the quotas (the ledger would stop its runs short).
import type { Command } from 'commander';
import {
  budgetReport,
  FAMILY_NAMES,
  fitFigures,
  type PeriodFit,
  planQuotas,
  QUOTA_FAMILIES,
  UsageLedger,
  type BudgetReport,
  type FamilyUsage,
  type QuotaFamily,
  type StreamCost,
} from '../budget/index.js';
import { ConfigError } from '../errors.js';
import { EXIT, type CliIo, type SetExit } from './io.js';
import { configureJobs, jobDefinitions, jobStreams } from '../scheduler/index.js';
import { syncSettings } from '../sync/index.js';
import { commandContext, openConfiguredStore, openMirrorOrEmpty, requireMirror, type CommandContext } from './context.js';
import { formatTable } from './table.js';
import { count as n } from '../figures.js';

export function budgetCommand(program: Command, io: CliIo, setExit: SetExit): void {
  program
    .command('budget')
    .description("Quotas per API family: used today and this month, the schedule's projected month, and how fresh it keeps each stream")
    .option('--json', 'print JSON instead of tables')
    .option('--release <family>', `clear a quota hold the service announced (${QUOTA_FAMILIES.join(', ')}): the next run asks it again`)
    .action(async (flags: { json?: boolean; release?: string }, command: Command) => {
      const ctx = commandContext(command, io);
      if (flags.release !== undefined) return releaseHold(ctx, flags.release, io);
      const jobs = configureJobs(jobDefinitions(ctx.config.jobsDir), ctx.config.jobs, ctx.config.timezone).filter((j) => j.enabled);
      const schedule = jobs.map((job) => ({ job, streams: jobStreams(job) }));
      const store = await openMirrorOrEmpty(ctx);
      try {
        const report = await budgetReport(store, syncSettings(ctx.config), schedule, planQuotas(ctx.config.limits), new Date());
        io.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : renderBudget(report));
        if (report.schedule.problems.length > 0 || report.period.some((f) => !f.fits)) setExit(EXIT.failed);
      } finally {
        await store.close();
      }
    });
}

/** `budget --release <family>`: clears the family's hold, says what it was, and touches nothing else. */
async function releaseHold(ctx: CommandContext, family: string, io: CliIo): Promise<void> {
  if (!(QUOTA_FAMILIES as readonly string[]).includes(family)) {
    throw new ConfigError(`--release takes a quota family (${QUOTA_FAMILIES.join(', ')}); got "${family}"`);
  }
  requireMirror(ctx);
  const store = await openConfiguredStore(ctx);
  try {
    const held = await new UsageLedger(store).releaseHold(family as QuotaFamily, new Date());
    io.stdout.write(
      held
        ? `released the ${family} hold (until ${held.until.toISOString().slice(0, 16).replace('T', ' ')} UTC; the service said: ${held.reason})\n`
        : `no hold on ${family}: nothing to release\n`,
    );
  } finally {
    await store.close();
  }
}

export function quotaText(u: Pick<FamilyUsage, 'quota'>): string {
  const q = u.quota;
  const parts = [
    q.perMonth !== undefined ? `${n(q.perMonth)}/month` : null,
    q.perDay !== undefined ? `${n(q.perDay)}/day` : null,
    q.perMinute !== undefined ? `${n(q.perMinute)}/min` : null,
  ].filter(Boolean);
  return parts.join(', ') || 'none';
}

/** The usage table, shared with `status`. */
export function renderUsage(usage: readonly FamilyUsage[]): string {
  return formatTable(
    ['family', 'quota', 'today', 'this month', 'left', 'renews'],
    usage.map((u) => [
      FAMILY_NAMES[u.family],
      quotaText(u),
      n(u.today),
      n(u.month),
      u.hold ? `0 (the service said so: ${u.hold.reason})` : u.left === null ? null : n(u.left),
      (u.hold?.until.toISOString() ?? u.renewsAt)?.slice(0, 16).replace('T', ' ') ?? null,
    ]),
  );
}

/** The run's requests, with its costliest streams named. */
function perRunText(costs: readonly StreamCost[]): string {
  const paid = costs.filter((c) => c.requests > 0).sort((a, b) => b.requests - a.requests);
  const total = paid.reduce((sum, c) => sum + c.requests, 0);
  const mark = paid.some((c) => c.estimated) ? '~' : '';
  const named = paid
    .slice(0, 2)
    .map((c) => `${c.stream} ${n(c.requests)}${c.atLeast ? '+' : ''}`)
    .join(', ');
  return paid.length === 0 ? '0' : `${mark}${n(total)}${paid.length > 1 ? ` (${named}${paid.length > 2 ? ', ...' : ''})` : ''}`;
}

/** What is left of this day and month against the schedule's runs still due before each renewal. */
function periodLines(period: readonly PeriodFit[]): string[] {
  if (period.length === 0) return [];
  return [
    'This period: what is used, plus the runs the schedule still makes before each renewal:',
    ...period.map((f) => `${FAMILY_NAMES[f.family]}, this ${f.period}: ${fitFigures(f)}${fitVerdict(f)}`),
  ];
}

/** A period over its quota does not fit; a held one waits (its figures already say until when). */
function fitVerdict(f: PeriodFit): string {
  if (f.fits) return '';
  return f.heldUntil ? ': its runs wait for the renewal' : ': does not fit';
}

function age(ms: number | null): string {
  if (ms === null) return 'not scheduled';
  const minutes = ms / 60_000;
  if (minutes < 120) return `${Math.round(minutes)} min`;
  if (minutes < 48 * 60) return `${Math.round(minutes / 60)} h`;
  return `${Math.round(minutes / 1440)} days`;
}

export function renderBudget(r: BudgetReport): string {
  const s = r.schedule;
  const out: string[] = [`Usage (UTC days and months; every worker of this database):`, renderUsage(r.usage), ''];
  out.push(
    `The schedule in a calendar month (the busier of this one and the next, UTC)${s.estimated ? " (~: some sizes are the real service's published sizes; the mirror does not hold them yet)" : ''}:`,
  );
  const families = r.usage.map((u) => u.family).filter((f) => s.perMonth[f] > 0);
  out.push(
    formatTable(
      ['job', 'schedule', 'runs', 'requests a run', ...families.map((f) => `${f} a month`)],
      s.jobs.map((j) => [j.job, j.schedule, n(j.runsPerMonth), perRunText(j.perRun), ...families.map((f) => n(j.perMonth[f]))]),
    ),
  );
  for (const u of r.usage) {
    if (s.perMonth[u.family] === 0) continue;
    const q = u.quota;
    const month = q.perMonth !== undefined ? ` of ${n(q.perMonth)} (${Math.round((100 * s.perMonth[u.family]) / q.perMonth)}%)` : '';
    out.push(
      `${FAMILY_NAMES[u.family]}: ${s.estimated ? '~' : ''}${n(s.perMonth[u.family])} a month${month}, up to ${n(s.perDay[u.family])} a day`,
    );
  }
  out.push('', ...periodLines(r.period));
  const short = r.period
    .filter((f) => !f.fits && f.heldUntil === null)
    .map((f) => `the rest of this ${f.period} (${f.family}): ${fitFigures(f)}`);
  const problems = [...s.problems, ...short];
  const held = [...new Set(r.period.filter((f) => f.heldUntil !== null).map((f) => f.family))];
  out.push(
    '',
    problems.length === 0
      ? `The schedule fits the quotas: a whole month of it, and the rest of this one${held.length > 0 ? ' once the hold ends' : ''}.`
      : `The schedule does not fit the quotas:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
  );
  out.push('', 'What it buys: how old each stream can get (the longest time between two runs that refresh it):');
  out.push(
    formatTable(
      ['stream', 'at most', 'jobs'],
      s.freshness.map((f) => [f.stream, age(f.maxAgeMs), f.jobs.join(', ') || null]),
    ),
  );
  out.push(
    '',
    `Development details: ${n(r.backlog.inScope)} pending in the backlog's scope, ${n(r.backlog.pending)} pending in all (monitoring.details).`,
  );
  return `${out.join('\n')}\n`;
}
