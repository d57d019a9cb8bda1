// Whether the rest of this period's schedule fits what is left of it: for each quota a family has (its
// UTC day, its calendar month), what was used, plus the schedule's runs still due before the renewal,
// plus a run about to start, against the quota. A projection of a whole month says whether the schedule
// can ever fit; this says whether it fits now, so `budget`, /healthz and a sync's refusal tell the truth
// on the day a month is already spent.
import type { Projection, ScheduleEntry } from './projection.js';
import { monthFigures, scheduledUntil, type LedgerUse, type MonthFigures } from './month-figures.js';
import { renewsAt, type QuotaFamily } from './quotas.js';
import { count } from '../figures.js';

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

/** One entry per family and quota period; `run` adds a run's requests per family. The month's are monthFigures'. */
export function periodFits(
  projection: Projection,
  schedule: readonly ScheduleEntry[],
  usage: readonly LedgerUse[],
  at: Date,
  run: Partial<Record<QuotaFamily, number>> = {},
): PeriodFit[] {
  const months = monthFigures(projection, schedule, usage, at, run);
  const fits: PeriodFit[] = [];
  usage.forEach((u, i) => {
    const month = months[i]!;
    if (u.quota.perDay !== undefined) {
      const renewal = renewsAt('day', at);
      const scheduled = scheduledUntil(projection, schedule, u.family, at, renewal);
      fits.push(fitOf({ ...month, quota: u.quota.perDay, used: u.today, scheduled, renewsAt: renewal.toISOString() }, 'day'));
    }
    if (month.quota !== null) fits.push(fitOf({ ...month, quota: month.quota }, 'month'));
  });
  return fits;
}

/** A period's figures and whether its schedule fits: a hold the service announced stops every request of the family, whatever the ledger counted. */
function fitOf(f: Omit<MonthFigures, 'quota'> & { quota: number }, period: 'day' | 'month'): PeriodFit {
  const total = f.used + f.run + f.scheduled;
  const fits = total <= f.quota && !(f.heldUntil !== null && f.run + f.scheduled > 0);
  return {
    family: f.family,
    period,
    quota: f.quota,
    used: f.used,
    scheduled: f.scheduled,
    run: f.run,
    renewsAt: f.renewsAt,
    estimated: f.estimated,
    heldUntil: f.heldUntil,
    fits,
  };
}

const when = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/** One line: the figures of a period, e.g. `1,397 used + ~120 scheduled until 2026-12-01 00:00 UTC = 1,517 of 2,500`. */
export function fitFigures(f: PeriodFit): string {
  const run = f.run > 0 ? ` + ${count(f.run)} this run` : '';
  const total = f.used + f.run + f.scheduled;
  // A held family has nothing to spare, whatever the ledger counted: the service refuses it until then.
  const margin = f.heldUntil
    ? `held: the service refuses the family until ${when(f.heldUntil)}`
    : total <= f.quota
      ? `${count(f.quota - total)} to spare`
      : `${count(total - f.quota)} over`;
  return `${count(f.used)} used${run} + ${f.estimated ? '~' : ''}${count(f.scheduled)} scheduled until ${when(f.renewsAt)} = ${count(total)} of ${count(f.quota)} (${margin})`;
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
