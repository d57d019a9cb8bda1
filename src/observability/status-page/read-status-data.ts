// Gathers the status page's data from the mirror's own tables, so a page served by any worker shows
// every worker's work. It reuses what `status`, `budget` and /metrics compute (mirror-stats, the
// usage ledger, the schedule's projection) and adds only the page's own reads (status-queries.ts).
import { allStreams } from '../../catalog/index.js';
import { usageOf } from '../../budget/budget-report.js';
import { monthFigures } from '../../budget/month-figures.js';
import { projectSchedule, type Projection, type ScheduleEntry } from '../../budget/projection.js';
import { monthStartDay, renewsAt, utcDay, type Quotas } from '../../budget/quotas.js';
import { UsageLedger } from '../../budget/usage-ledger.js';
import { unresolvedViews } from '../../receiver/index.js';
import type { Store } from '../../store/types.js';
import type { SyncSettings } from '../../sync/context.js';
import { readMirrorStats, type MirrorStats } from '../mirror-stats.js';
import { freshnessOf } from './freshness.js';
import { alertsSince, type AlertRow } from '../../receiver/index.js';
import { liveRows, recentRuns, streamExtras } from './status-queries.js';
import type { AlertsData, Arrival, FamilyLine, JobLine, StatusData, StreamLine } from './status-data.js';

export interface StatusSources {
  settings: SyncSettings;
  quotas: Quotas;
  /** The enabled jobs with their streams: the projection and each stream's freshness come from them. */
  schedule: readonly ScheduleEntry[];
  jobs: readonly JobLine[];
  now: Date;
  source: StatusData['source'];
}
import { readSchemaChanges } from '../../sync/shape/read-changes.js';

const RECENT_RUNS = 20;
const ALERT_DAYS = 30;
const DAY_MS = 86_400_000;

const FAMILY_LABELS: Record<string, string> = {
  v1: '/v1 (and charts)',
  tokenUnlocks: 'token unlocks',
  monitoring: 'monitoring',
  open: 'keyless /v1 (market stats)',
};

export async function readStatusData(store: Store, src: StatusSources): Promise<StatusData> {
  const at = src.now;
  const projection = await projectSchedule(store, src.settings, src.schedule, src.quotas, at, allStreams());
  const stats = await readMirrorStats(store, at.getTime());
  return {
    generatedAt: at.toISOString(),
    source: src.source,
    streams: await streamLines(store, stats, projection, at),
    families: await familyLines(store, src, projection, at),
    runs: await recentRuns(store, RECENT_RUNS),
    alerts: alertsByDay(await alertsSince(store, alertDays(at)[0]!), at),
    jobs: [...src.jobs],
    deliveries: stats.deliveries,
    problems: projection.problems,
    unresolvedViews: await unresolvedViews(store, src.settings.monitoring.views),
    schemaChanges: await readSchemaChanges(store),
  };
}

async function streamLines(store: Store, stats: MirrorStats, projection: Projection, at: Date): Promise<StreamLine[]> {
  const extras = await streamExtras(store);
  const lines: StreamLine[] = [];
  for (const stream of allStreams()) {
    const totals = stats.streams.find((s) => s.stream === stream.name);
    const planned = projection.freshness.find((f) => f.stream === stream.name);
    const lastSuccessAt = totals?.lastSuccessAt ?? null;
    const ageMs = lastSuccessAt === null ? null : Math.max(0, at.getTime() - Date.parse(lastSuccessAt));
    const maxAgeMs = planned?.maxAgeMs ?? null;
    lines.push({
      stream: stream.name,
      rows: await liveRows(store, stream),
      lastSuccessAt,
      ageMs,
      maxAgeMs,
      freshness: freshnessOf(ageMs, maxAgeMs),
      jobs: planned?.jobs ?? [],
      lastError: totals?.lastError ?? null,
      lastErrorCode: totals?.lastErrorCode ?? null,
      lastNotice: extras.get(stream.name)?.notice ?? null,
      quarantined: extras.get(stream.name)?.quarantined ?? 0,
      resumes: totals?.resumes ?? false,
    });
  }
  return lines;
}

/** Per quota family with a quota, a use or a schedule: this month's days, its allowance and where the schedule takes it. */
async function familyLines(store: Store, src: StatusSources, projection: Projection, at: Date): Promise<FamilyLine[]> {
  const usage = await usageOf(store, src.quotas, at);
  const figures = monthFigures(projection, src.schedule, usage, at);
  const history = await new UsageLedger(store).history(monthStartDay(at));
  const renewal = renewsAt('month', at);
  const days: string[] = [];
  for (let t = Date.parse(`${monthStartDay(at)}T00:00:00Z`); t < renewal.getTime(); t += DAY_MS) days.push(utcDay(new Date(t)));
  return usage.flatMap((u, i) => {
    if (!(u.month > 0 || u.quota.perMonth !== undefined || u.quota.perDay !== undefined || projection.perMonth[u.family] > 0)) return [];
    const month = figures[i]!;
    return [
      {
        family: u.family,
        label: FAMILY_LABELS[u.family] ?? u.family,
        quota: u.quota,
        today: u.today,
        month: month.used,
        days: days.map((day) => ({
          day,
          requests: history.filter((h) => h.family === u.family && h.day === day).reduce((n, h) => n + h.requests, 0),
        })),
        scheduledPerMonth: Math.round(projection.perMonth[u.family]),
        projectedAtRenewal: month.atRenewal,
        spareAtRenewal: month.spare,
        monthRenewsAt: month.renewsAt,
        hold: u.hold ? { until: u.hold.until.toISOString(), reason: u.hold.reason } : null,
      },
    ];
  });
}

/** The last 30 UTC days, oldest first, ending today. */
function alertDays(at: Date): string[] {
  const today = Date.parse(`${utcDay(at)}T00:00:00Z`);
  return Array.from({ length: ALERT_DAYS }, (_, i) => utcDay(new Date(today - (ALERT_DAYS - 1 - i) * DAY_MS)));
}

/** Per view (most alerts first), per day, how each alert arrived. */
export function alertsByDay(rows: readonly AlertRow[], at: Date): AlertsData {
  const days = alertDays(at);
  const index = new Map(days.map((d, i) => [d, i]));
  const views = new Map<string, AlertsData['views'][number]>();
  for (const row of rows) {
    const i = index.get(row.at.slice(0, 10));
    if (i === undefined) continue;
    let view = views.get(row.viewId);
    if (!view) {
      view = {
        viewId: row.viewId,
        viewName: row.viewName ?? row.viewId,
        total: 0,
        perDay: days.map(() => ({ webhook: 0, backfill: 0, both: 0 })),
      };
      views.set(row.viewId, view);
    }
    if (row.viewName) view.viewName = row.viewName;
    const arrival: Arrival = row.webhook && row.backfill ? 'both' : row.webhook ? 'webhook' : 'backfill';
    view.perDay[i]![arrival]++;
    view.total++;
  }
  return { days, views: [...views.values()].sort((a, b) => b.total - a.total || a.viewName.localeCompare(b.viewName)) };
}
