// The budget reasons /healthz reports: a family whose allowance is spent, or whose schedule can no
// longer fit before the renewal, leaves the daemon up but not doing all its work ("degraded"). /healthz
// answers synchronously and the projection reads the mirror, so the reasons are computed in the
// background: at start, and when a probe finds them older than a minute.
import { allStreams } from '../catalog/index.js';
import type { Store } from '../store/types.js';
import type { SyncSettings } from '../requests/run-settings.js';
import { usageOf } from './budget-report.js';
import { monthFigures, type MonthFigures } from './month-figures.js';
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

/** What /healthz says of the budget: the alarms, and the month's figures the status page and `budget` show. */
export interface BudgetAnswer {
  alarms: BudgetAlarm[];
  month: MonthFigures[];
}

/** The alarms now (used + the rest of the schedule against each quota period), and the month's figures. */
export async function budgetAt(input: Omit<BudgetWatchInput, 'now'>, at: Date): Promise<BudgetAnswer> {
  const { store, settings, schedule, quotas } = input;
  const usage = await usageOf(store, quotas, at);
  const projection = await projectSchedule(store, settings, schedule, quotas, at, allStreams());
  return { alarms: budgetAlarms(periodFits(projection, schedule, usage, at)), month: monthFigures(projection, schedule, usage, at) };
}

export async function budgetAlarmsAt(input: Omit<BudgetWatchInput, 'now'>, at: Date): Promise<BudgetAlarm[]> {
  return (await budgetAt(input, at)).alarms;
}

export interface BudgetWatch {
  /** The answer as last computed (alarms whose renewal passed left out); a probe older than a minute starts a new computation. */
  current(): BudgetAnswer;
  refresh(): Promise<void>;
}

export function watchBudget(input: BudgetWatchInput): BudgetWatch {
  let answer: BudgetAnswer = { alarms: [], month: [] };
  let readAt = -Infinity;
  let reading: Promise<void> | null = null;
  const refresh = () =>
    (reading ??= budgetAt(input, new Date(input.now()))
      .then((found) => {
        answer = found;
        readAt = input.now();
      })
      .catch(() => {}) // the database away: keep the last answer; the runs that fail say why
      .finally(() => (reading = null)));
  return {
    current() {
      if (input.now() - readAt > FRESH_MS) void refresh();
      return { alarms: answer.alarms.filter((a) => Date.parse(a.renewsAt) > input.now()), month: answer.month };
    },
    refresh,
  };
}
