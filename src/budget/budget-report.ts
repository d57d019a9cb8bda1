// Everything `ds-mirror budget` says, as data: per quota family what was used today and this month
// against the plan, what the configured schedule will use in a month and what it buys (each stream's
// freshness), what does not fit, and the development-details backlog.
import { allStreams } from '../catalog/index.js';
import { detailsBacklog, DEFAULT_DETAILS } from '../requests/details-backlog.js';
import type { Store } from '../store/types.js';
import type { SyncSettings } from '../requests/run-settings.js';
import { monthFigures, type MonthFigures } from './month-figures.js';
import { periodFits, type PeriodFit } from './period-fit.js';
import { projectSchedule, type Projection, type ScheduleEntry } from './projection.js';
import { QUOTA_FAMILIES, renewsAt, type FamilyQuota, type QuotaFamily, type Quotas } from './quotas.js';
import { UsageLedger, type QuotaHold } from './usage-ledger.js';

export interface FamilyUsage {
  family: QuotaFamily;
  quota: FamilyQuota;
  today: number;
  month: number;
  /** The tightest of the day's and the month's allowances left, null when neither is limited. */
  left: number | null;
  renewsAt: string | null;
  hold: QuotaHold | null;
}

export interface BudgetReport {
  at: string;
  usage: FamilyUsage[];
  schedule: Projection;
  /** The month's figures per family: the status page's, /healthz's and `sync --plan`'s (month-figures.ts). */
  month: MonthFigures[];
  /** The rest of this day's and month's schedule against what is left of them. */
  period: PeriodFit[];
  backlog: { inScope: number; pending: number };
}

export async function usageOf(store: Store, quotas: Quotas, at: Date): Promise<FamilyUsage[]> {
  const ledger = new UsageLedger(store);
  return Promise.all(
    QUOTA_FAMILIES.map(async (family) => {
      const quota = quotas[family];
      const { today, month } = await ledger.usage(family, at);
      const byDay = quota.perDay === undefined ? null : quota.perDay - today;
      const byMonth = quota.perMonth === undefined ? null : quota.perMonth - month;
      const left = byDay === null ? byMonth : byMonth === null ? byDay : Math.min(byDay, byMonth);
      const period = byDay !== null && (byMonth === null || byDay <= byMonth) ? 'day' : 'month';
      return {
        family,
        quota,
        today,
        month,
        left: left === null ? null : Math.max(0, left),
        renewsAt: left === null ? null : renewsAt(period, at).toISOString(),
        hold: await ledger.holdOf(family, at),
      };
    }),
  );
}

/** `schedule`: the enabled jobs with their streams. */
export async function budgetReport(
  store: Store,
  settings: SyncSettings,
  schedule: readonly ScheduleEntry[],
  quotas: Quotas,
  at: Date,
): Promise<BudgetReport> {
  const usage = await usageOf(store, quotas, at);
  const projection = await projectSchedule(store, settings, schedule, quotas, at, allStreams());
  return {
    at: at.toISOString(),
    usage,
    schedule: projection,
    month: monthFigures(projection, schedule, usage, at),
    period: periodFits(projection, schedule, usage, at),
    backlog: await detailsBacklog(store, settings.monitoring.details ?? DEFAULT_DETAILS),
  };
}
