// `sync --plan`: what a run of the streams asked would request, read as the run would read them, and how
// each period's schedule fits after it. Nothing is sent; no mirror is made where there is none yet (the
// first run is planned on an empty store in memory).
import { planQuotas } from '../budget/plan-quotas.js';
import type { PeriodFit } from '../budget/period-fit.js';
import { planRun, type RunPlan } from '../budget/run-plan.js';
import type { StreamReading } from '../budget/stream-readings.js';
import { resolveStreams } from '../catalog/index.js';
import type { Store } from '../store/types.js';
import { syncSettings, type SettingsFlags } from '../sync/settings.js';
import { checkDbFolder, mirrorExists, openEmptyMirror } from './configured.js';
import type { MirrorParts } from './mirror-parts.js';
import { periodAfter, syncBudget } from './sync-budget.js';

export interface PlanRequest extends SettingsFlags {
  /** Stream names or groups (`all`, `v1`, `monitoring`, `fanouts`); none: every stream that is not opt-in. */
  streams?: readonly string[];
}

export interface MirrorPlan {
  plan: RunPlan;
  /** How each stream asked is read, and why. */
  readings: StreamReading[];
  /** The rest of each period after the run, per family the run uses. */
  period: PeriodFit[];
}

export async function planMirror(mirror: MirrorParts, request: PlanRequest = {}): Promise<MirrorPlan> {
  const { config } = mirror;
  const asked = resolveStreams(request.streams ?? []);
  const settings = syncSettings(config, request);
  const empty = !mirror.isOpen() && !mirrorExists(config);
  if (empty) checkDbFolder('--db', config.db, config.dbSchema, false); // a typo in --db is said, as a sync would
  const store = await (empty ? openEmptyMirror(mirror.logger) : mirror.store());
  try {
    return await planOn(store, mirror, settings, asked);
  } finally {
    if (empty) await store.close();
  }
}

async function planOn(
  store: Store,
  { config }: MirrorParts,
  settings: ReturnType<typeof syncSettings>,
  asked: ReturnType<typeof resolveStreams>,
): Promise<MirrorPlan> {
  const at = new Date();
  const budget = await syncBudget(config, store, settings, asked, at);
  const streams = budget.readings.map((r) => r.reads);
  const quotas = planQuotas(config.limits);
  const plan = await planRun(store, settings, streams, config.baseUrl || '{base_url}', quotas, at);
  const period = await periodAfter(store, settings, budget, quotas, plan, at);
  return { plan, readings: budget.readings, period };
}
