// `sync --plan`: the requests a run would make, without making any, per stream and per quota family
// against the plan's quotas and what this month already used. Sizes come from the mirror; where it
// holds nothing yet (a first sync), from the real service's published sizes, marked as estimates.
import type { StreamDef } from '../catalog/types.js';
import type { Store } from '../store/types.js';
import type { SyncSettings } from '../requests/run-settings.js';
import { usageOf, type FamilyUsage } from './budget-report.js';
import { plannerOf } from '../sync/index.js';
import { runCost, type StreamCost } from './cost-model.js';
import { QUOTA_FAMILIES, type QuotaFamily, type Quotas } from './quotas.js';

export interface PlannedStream extends StreamCost {
  /** The first request, as it would be sent (no key). */
  request: string;
}

export interface FamilyPlan {
  family: QuotaFamily;
  requests: number;
  estimated: boolean;
  usage: FamilyUsage;
  /** Minutes the run needs at the family's rate. */
  minutes: number | null;
  /** The requests beyond what the day's or month's quota has left (the run would stop there, resumable). */
  over: number;
}

export interface RunPlan {
  streams: PlannedStream[];
  families: FamilyPlan[];
}

export async function planRun(
  store: Store,
  settings: SyncSettings,
  streams: readonly StreamDef[],
  baseUrl: string,
  quotas: Quotas,
  at: Date,
): Promise<RunPlan> {
  const planned: PlannedStream[] = [];
  for (const stream of streams) {
    // The runner says its first request, or that it would request nothing (then nothing is said of it).
    const request = await plannerOf(stream).firstRequest(store, settings, baseUrl);
    if (request === null) continue;
    planned.push({ ...(await runCost(store, settings, stream)), request });
  }
  const usage = await usageOf(store, quotas, at);
  const families = QUOTA_FAMILIES.flatMap((family) => {
    const mine = planned.filter((p) => p.family === family);
    if (mine.length === 0) return [];
    const requests = mine.reduce((n, p) => n + p.requests, 0);
    const u = usage.find((x) => x.family === family)!;
    const perMinute = quotas[family].perMinute;
    return [
      {
        family,
        requests,
        estimated: mine.some((p) => p.estimated),
        usage: u,
        minutes: perMinute === undefined ? null : requests / perMinute,
        over: u.hold ? requests : u.left === null ? 0 : Math.max(0, requests - u.left),
      },
    ];
  });
  return { streams: planned, families };
}
