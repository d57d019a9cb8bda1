// How `sync --plan` reads: per stream the requests, how the run reads it and why, and the first request;
// per quota family the total against what the plan has left, how long the family's rate makes the run,
// and whether the rest of the period's schedule still fits after it (a plain sync is refused when not).
import { FAMILY_NAMES, fitFigures, type PeriodFit, type RunPlan, type StreamReading } from '../budget/index.js';
import { quotaText } from './budget-command.js';
import { formatTable } from './table.js';
import { count as n, counted } from '../figures.js';

export function renderPlan(plan: RunPlan, readings: readonly StreamReading[] = [], period: readonly PeriodFit[] = []): string {
  const how = new Map(readings.map((r) => [r.reads.name, r.how]));
  const out = [
    formatTable(
      ['stream', 'requests', 'how it is read, and why', 'first request'],
      plan.streams.map((p) => [
        p.stream,
        `${p.estimated ? '~' : ''}${p.atLeast ? '≥' : ''}${n(p.requests)}${aheadText(p)}`,
        how.get(p.stream) ?? null,
        p.request,
      ]),
    ),
    '',
  ];
  for (const f of plan.families) {
    const u = f.usage;
    const quota = quotaText(u);
    const time = f.minutes !== null && f.minutes >= 1 ? `, about ${Math.ceil(f.minutes)} min at its rate` : '';
    const left = u.hold
      ? `the service holds it until ${u.hold.until.toISOString()}`
      : u.left === null
        ? null
        : `${n(u.left)} left (${n(u.month)} used this month)`;
    const verdict =
      f.over > 0
        ? `: about ${n(f.over)} over what is left; the run would stop at a checkpoint there (exit 3) and resume when the quota renews`
        : '';
    out.push(
      `${FAMILY_NAMES[f.family]}: ${f.estimated ? '~' : ''}${counted(f.requests, 'request')}${time}; quota ${quota}${left ? `, ${left}` : ''}${verdict}`,
    );
  }
  for (const f of period) {
    const verdict = f.fits ? 'the schedule still fits' : 'too much: a sync is refused unless --force';
    out.push(`after this run, the ${f.family} ${f.period}: ${fitFigures(f)}: ${verdict}`);
  }
  if (plan.streams.some((p) => p.estimated))
    out.push("~ estimated from the real service's published sizes: the mirror does not hold these streams yet");
  if (plan.streams.some((p) => p.readAhead))
    out.push("(+n ahead): of those, at most n may land past a list's end: a list never mirrored is read a few pages ahead");
  out.push('(no request was made)');
  return `${out.join('\n')}\n`;
}

function aheadText(p: RunPlan['streams'][number]): string {
  return p.readAhead ? ` (+${p.readAhead} ahead)` : '';
}
