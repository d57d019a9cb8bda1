// Whether the rest of this period's schedule fits what is left of it: for each quota a family has (its
// UTC day, its calendar month), what was used, plus the schedule's runs still due before the renewal,
// plus a run about to start, against the quota. A projection of a whole month says whether the schedule
// can ever fit; this says whether it fits now, so `budget`, /healthz and a sync's refusal tell the truth
// on the day a month is already spent.
import type { Projection, ScheduleEntry } from './projection.js';
import { renewsAt, type FamilyQuota, type QuotaFamily } from './quotas.js';
import { firesBetween } from './schedule-fires.js';

export interface PeriodFit {
  family: QuotaFamily;
  period: 'day' | 'month';
  quota: number;
  used: number;
  /** The schedule's requests from now until the renewal. */
  scheduled: number;
  /** The requests of a run about to start (0 for the schedule alone). */
  run: number;
  renewsAt: string;
  /** Some per-run cost came from the published real sizes. */
  estimated: boolean;
  /** The service said the family's allowance is spent, until then (a quota hold). */
  heldUntil: string | null;
  fits: boolean;
}

/** A family's use as budget-report's usageOf reads it. */
interface FamilyUsage {
  family: QuotaFamily;
  quota: FamilyQuota;
  today: number;
  month: number;
  hold: { until: Date } | null;
}

/** One entry per family and quota period; `run` adds a run's requests per family. */
export function periodFits(
  projection: Projection,
  schedule: readonly ScheduleEntry[],
  usage: readonly FamilyUsage[],
  at: Date,
  run: Partial<Record<QuotaFamily, number>> = {},
): PeriodFit[] {
  const fits: PeriodFit[] = [];
  for (const u of usage) {
    for (const period of ['day', 'month'] as const) {
      const quota = period === 'day' ? u.quota.perDay : u.quota.perMonth;
      if (quota === undefined) continue;
      const renewal = renewsAt(period, at);
      const scheduled = scheduledUntil(projection, schedule, u.family, at, renewal);
      const used = period === 'day' ? u.today : u.month;
      const extra = run[u.family] ?? 0;
      // A hold the service announced stops every request of the family, whatever the ledger counted.
      const held = u.hold !== null && u.hold.until.getTime() > at.getTime();
      fits.push({
        family: u.family,
        period,
        quota,
        used,
        scheduled,
        run: extra,
        renewsAt: renewal.toISOString(),
        estimated: projection.estimated,
        heldUntil: held ? u.hold!.until.toISOString() : null,
        fits: used + extra + scheduled <= quota && !(held && extra + scheduled > 0),
      });
    }
  }
  return fits;
}

/** The family's requests of every job's runs in [from, to). */
function scheduledUntil(projection: Projection, schedule: readonly ScheduleEntry[], family: QuotaFamily, from: Date, to: Date): number {
  let total = 0;
  schedule.forEach(({ job }, i) => {
    const perRun = projection.jobs[i]!.perRun.filter((c) => c.family === family).reduce((n, c) => n + c.requests, 0);
    if (perRun > 0) total += perRun * firesBetween(job, from, to);
  });
  return Math.ceil(total);
}

const count = (n: number) => Math.round(n).toLocaleString('en-US');
const when = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/** One line: the figures of a period, e.g. `1,397 used + ~120 scheduled until 2026-12-01 00:00 UTC = 1,517 of 2,500`. */
export function fitFigures(f: PeriodFit): string {
  const run = f.run > 0 ? ` + ${count(f.run)} this run` : '';
  const total = f.used + f.run + f.scheduled;
  const margin = total <= f.quota ? `${count(f.quota - total)} to spare` : `${count(total - f.quota)} over`;
  const held = f.heldUntil ? `; the service holds it until ${when(f.heldUntil)}` : '';
  return `${count(f.used)} used${run} + ${f.estimated ? '~' : ''}${count(f.scheduled)} scheduled until ${when(f.renewsAt)} = ${count(total)} of ${count(f.quota)} (${margin}${held})`;
}

/** Why a family's work is stalled or about to be, for /healthz: an allowance spent, or a schedule that no longer fits. */
export interface BudgetAlarm {
  family: QuotaFamily;
  period: 'day' | 'month';
  renewsAt: string;
  reason: string;
}

export function budgetAlarms(fits: readonly PeriodFit[]): BudgetAlarm[] {
  return fits
    .filter((f) => !f.fits || f.used >= f.quota || f.heldUntil !== null)
    .map((f) => ({
      family: f.family,
      period: f.period,
      renewsAt: f.heldUntil ?? f.renewsAt,
      reason:
        f.used >= f.quota || f.heldUntil !== null
          ? `the ${f.family} ${f.period}'s allowance is spent (${f.heldUntil ? 'the service said so' : `${count(f.used)} of ${count(f.quota)}`}); its runs wait for the renewal`
          : `the rest of the ${f.period}'s schedule no longer fits: ${fitFigures(f)}`,
    }));
}
