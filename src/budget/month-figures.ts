// The month's figures of every quota family, computed here once for every door that shows them: the
// status page, `budget`, /healthz and `sync --plan` agree to the request because none computes its own.
// Used is the ledger's month (usage_ledger, a clock's later rows included: usage-ledger.ts); scheduled is
// the schedule's runs still due before the renewal; at renewal is their sum with a run about to start.
import type { Projection, ScheduleEntry } from './projection.js';
import { renewsAt, type FamilyQuota, type QuotaFamily } from './quotas.js';
import { firesBetween } from './schedule-fires.js';

export interface MonthFigures {
  family: QuotaFamily;
  /** The monthly allowance; null when the plan has none for the family. */
  quota: number | null;
  /** Requests counted this month, every worker's. */
  used: number;
  /** What the allowance has left now (0 while the service holds the family); null without a monthly quota. */
  left: number | null;
  /** The schedule's requests from now until the renewal. */
  scheduled: number;
  /** The requests of a run about to start (0 for the schedule alone). */
  run: number;
  /** Where the month ends by the renewal: used + run + scheduled. */
  atRenewal: number;
  /** The allowance less the month at renewal (negative: over); null without a monthly quota. */
  spare: number | null;
  renewsAt: string;
  /** The service said the family's allowance is spent, until then (a quota hold). */
  heldUntil: string | null;
  /** Some per-run cost came from the published real sizes. */
  estimated: boolean;
}

/** A family's use as budget-report's usageOf reads it. */
export interface LedgerUse {
  family: QuotaFamily;
  quota: FamilyQuota;
  today: number;
  month: number;
  hold: { until: Date } | null;
}

/** Per family, the month's figures at `at`; `run` adds a run's requests per family. */
export function monthFigures(
  projection: Projection,
  schedule: readonly ScheduleEntry[],
  usage: readonly LedgerUse[],
  at: Date,
  run: Partial<Record<QuotaFamily, number>> = {},
): MonthFigures[] {
  const renewal = renewsAt('month', at);
  return usage.map((u) => {
    const quota = u.quota.perMonth ?? null;
    const scheduled = scheduledUntil(projection, schedule, u.family, at, renewal);
    const extra = run[u.family] ?? 0;
    const held = u.hold !== null && u.hold.until.getTime() > at.getTime() ? u.hold.until.toISOString() : null;
    const atRenewal = u.month + extra + scheduled;
    return {
      family: u.family,
      quota,
      used: u.month,
      left: quota === null ? null : held ? 0 : Math.max(0, quota - u.month),
      scheduled,
      run: extra,
      atRenewal,
      spare: quota === null ? null : quota - atRenewal,
      renewsAt: renewal.toISOString(),
      heldUntil: held,
      estimated: projection.estimated,
    };
  });
}

/** The family's requests of every job's runs in [from, to). */
export function scheduledUntil(
  projection: Projection,
  schedule: readonly ScheduleEntry[],
  family: QuotaFamily,
  from: Date,
  to: Date,
): number {
  let total = 0;
  schedule.forEach(({ job }, i) => {
    const perRun = projection.jobs[i]!.perRun.filter((c) => c.family === family).reduce((n, c) => n + c.requests, 0);
    if (perRun > 0) total += perRun * firesBetween(job, from, to);
  });
  return Math.ceil(total);
}
