// `sync --plan`: the requests a run would make, without making any, per stream and per quota family
// against the plan's quotas and what this month already used. Sizes come from the mirror; where it
// holds nothing yet (a first sync), from the real service's published sizes, marked as estimates.
import { buildUrl } from '../client/index.js';
import type { StreamDef } from '../catalog/types.js';
import type { Store } from '../store/types.js';
import { windowStart } from '../requests/date-window.js';
import { fanoutPath, fanoutQuery, selectionFor, selectParents } from '../requests/fanout-parents.js';
import { listRequests } from '../requests/list-requests.js';
import type { SyncSettings } from '../requests/run-settings.js';
import { usageOf, type FamilyUsage } from './budget-report.js';
import { resumePoints } from '../sync/index.js';
import { runCost, type StreamCost } from './cost-model.js';
import { count } from '../figures.js';
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
    const cost = await runCost(store, settings, stream);
    // Views are configured, not listed: nothing to plan (or say) when there are none.
    if (cost.requests === 0 && stream.kind === 'custom') continue;
    planned.push({ ...cost, request: await firstRequest(store, settings, stream, baseUrl) });
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

async function firstRequest(store: Store, settings: SyncSettings, stream: StreamDef, baseUrl: string): Promise<string> {
  if (stream.kind === 'custom') return `GET ${buildUrl(baseUrl, stream.path)}`;
  if (stream.kind === 'fanout') {
    const [example] = await selectParents(store, stream, selectionFor(settings, stream));
    return example
      ? `GET ${buildUrl(baseUrl, fanoutPath(stream, example), fanoutQuery(stream, settings.fanout))} (one per parent)`
      : '(no parents mirrored yet: sync their list first)';
  }
  // An interrupted pass resumes where its checkpoint says, inside the window it began with.
  const resume = await resumePoints(store, settings, stream);
  const variant = stream.variants?.find((v) => resume?.next[v.name] !== null) ?? stream.variants?.[0];
  const page = resume?.next[variant?.name ?? ''] ?? 1;
  const start = resume ? resume.windowStart : await windowStart(store, settings, stream);
  const query = listRequests(stream, settings, variant, start).query(page);
  const more = stream.variants && stream.variants.length > 1 ? ` (and ${stream.variants.length - 1} more classes)` : '';
  return `GET ${buildUrl(baseUrl, stream.path, query)}${more}${page > 1 ? ` (resumes at page ${count(page)})` : ''}`;
}
