// The budget reasons /healthz reports: a family whose allowance is spent, or whose schedule can no
// longer fit before the renewal, leaves the daemon up but not doing all its work ("degraded"). /healthz
// answers synchronously and the projection reads the mirror, so the reasons are computed in the
// background: at start, and when a probe finds them older than a minute.
import { allStreams } from '../catalog/index.js';
import type { Store } from '../store/types.js';
import type { SyncSettings } from '../requests/run-settings.js';
import { usageOf } from './budget-report.js';
import { budgetAlarms, periodFits, type BudgetAlarm } from './period-fit.js';
import { projectSchedule, type ScheduleEntry } from './projection.js';
import type { Quotas } from './quotas.js';

const FRESH_MS = 60_000;

export interface BudgetWatchInput {
  store: Store;
  settings: SyncSettings;
  schedule: readonly ScheduleEntry[];
  quotas: Quotas;
  now: () => number;
}

/** The alarms now (used + the rest of the schedule against each quota period). */
export async function budgetAlarmsAt(input: Omit<BudgetWatchInput, 'now'>, at: Date): Promise<BudgetAlarm[]> {
  const { store, settings, schedule, quotas } = input;
  const usage = await usageOf(store, quotas, at);
  const projection = await projectSchedule(store, settings, schedule, quotas, at, allStreams());
  return budgetAlarms(periodFits(projection, schedule, usage, at));
}

export interface BudgetWatch {
  /** The alarms as last computed; a probe older than a minute starts a new computation. */
  current(): BudgetAlarm[];
  refresh(): Promise<void>;
}

export function watchBudget(input: BudgetWatchInput): BudgetWatch {
  let alarms: BudgetAlarm[] = [];
  let readAt = -Infinity;
  let reading: Promise<void> | null = null;
  const refresh = () =>
    (reading ??= budgetAlarmsAt(input, new Date(input.now()))
      .then((found) => {
        alarms = found;
        readAt = input.now();
      })
      .catch(() => {}) // the database away: keep the last answer; the runs that fail say why
      .finally(() => (reading = null)));
  return {
    current() {
      if (input.now() - readAt > FRESH_MS) void refresh();
      return alarms.filter((a) => Date.parse(a.renewsAt) > input.now());
    },
    refresh,
  };
}
