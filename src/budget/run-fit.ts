// A run must not spend what the rest of the period's schedule needs: before its first request, a run's
// planned requests are added to what was used and to the schedule's runs still due before each renewal.
// A run that would leave them short is refused (the caller decides whether --force overrides).
import { allStreams } from '../catalog/index.js';
import type { StreamDef } from '../catalog/types.js';
import type { Store } from '../store/types.js';
import type { SyncSettings } from '../requests/run-settings.js';
import { usageOf } from './budget-report.js';
import { runCost } from './cost-model.js';
import { fitFigures, periodFits, type PeriodFit } from './period-fit.js';
import { projectSchedule, type ScheduleEntry } from './projection.js';
import type { QuotaFamily, Quotas } from './quotas.js';
import { count, counted } from '../figures.js';

export type Requests = Partial<Record<QuotaFamily, number>>;

export interface RunFitInput {
  store: Store;
  settings: SyncSettings;
  schedule: readonly ScheduleEntry[];
  quotas: Quotas;
  at: Date;
}

/** The periods the run's requests would leave short (empty: it fits). */
export async function shortPeriods({ store, settings, schedule, quotas, at }: RunFitInput, requests: Requests): Promise<PeriodFit[]> {
  const usage = await usageOf(store, quotas, at);
  const projection = await projectSchedule(store, settings, schedule, quotas, at, allStreams());
  return periodFits(projection, schedule, usage, at, requests).filter((f) => f.run > 0 && !f.fits);
}

/** The one line that refuses a run, with its figures. */
export function refusalLine(short: readonly PeriodFit[], what = 'this run'): string {
  const runs = [...new Map(short.map((f) => [f.family, f.run])).entries()];
  const needs = runs
    .map(([family, n], i) => (i === runs.length - 1 ? counted(n, `${family} request`) : `${count(n)} ${family}`))
    .join(' and ');
  const figures = short.map((f) => `the ${f.period}'s ${f.family}: ${fitFigures(f)}`).join('; ');
  return `refused: ${what} needs about ${needs}, which would leave the rest of the schedule short (${figures}); nothing was requested (--force to run it anyway: it stops at the quota)`;
}

/** The requests per family of one run of these streams, as the cost model plans them. */
export async function runRequests(store: Store, settings: SyncSettings, streams: readonly StreamDef[]): Promise<Requests> {
  const requests: Requests = {};
  for (const stream of streams) {
    const cost = await runCost(store, settings, stream);
    requests[cost.family] = (requests[cost.family] ?? 0) + cost.requests;
  }
  return requests;
}

/**
 * Runs checked one after the other (the daemon's start-up runs): each is counted with those accepted
 * before it, so together they leave the schedule whole.
 */
export function runFitter(input: Omit<RunFitInput, 'at'>, now: () => Date = () => new Date()) {
  const accepted: Requests = {};
  return async (what: string, streams: readonly StreamDef[], mode: SyncSettings['mode']): Promise<string | null> => {
    const own = await runRequests(input.store, { ...input.settings, mode }, streams);
    const total: Requests = { ...accepted };
    for (const [f, n] of Object.entries(own) as [QuotaFamily, number][]) total[f] = (total[f] ?? 0) + n;
    const short = (await shortPeriods({ ...input, at: now() }, total)).filter((p) => (own[p.family] ?? 0) > 0);
    if (short.length > 0) return refusalLine(short, what);
    Object.assign(accepted, total);
    return null;
  };
}
