// What the status page shows, as plain data: read from the mirror's tables (read-status-data.ts) and
// rendered by pure functions (render-status-page.ts), so the renderers are tested without a database.
import type { SchemaChange } from '../../sync/shape/read-changes.js';
import type { FamilyQuota, QuotaFamily } from '../../budget/quotas.js';

/** Against the longest gap between the runs of the jobs that refresh it. */
export type Freshness = 'fresh' | 'late' | 'stale' | 'never' | 'unscheduled';

export interface StreamLine {
  stream: string;
  rows: number;
  lastSuccessAt: string | null;
  ageMs: number | null;
  /** The longest time between two runs that refresh it; null: no enabled job covers it. */
  maxAgeMs: number | null;
  freshness: Freshness;
  jobs: string[];
  lastError: string | null;
  /** The last error's stable code (`DS_DRIFT`, `DS_QUOTA`...), when it had one. */
  lastErrorCode: string | null;
  lastNotice: string | null;
  quarantined: number;
  resumes: boolean;
}

export interface DayCount {
  /** YYYY-MM-DD, UTC. */
  day: string;
  requests: number;
}

export interface FamilyLine {
  family: QuotaFamily;
  label: string;
  quota: FamilyQuota;
  today: number;
  month: number;
  /** Every day of this calendar month (UTC), the days to come at 0. */
  days: DayCount[];
  /** What the schedule uses in a calendar month (the chart's legend). */
  scheduledPerMonth: number;
  /** This month's count plus the schedule's runs due before the renewal: `budget`'s and /healthz's figure (month-figures.ts). */
  projectedAtRenewal: number;
  /** The allowance less that (negative: over); null without a monthly quota. */
  spareAtRenewal: number | null;
  monthRenewsAt: string;
  hold: { until: string; reason: string } | null;
}

export interface RunLine {
  id: number;
  job: string | null;
  mode: string;
  streams: string[];
  startedAt: string;
  durationMs: number | null;
  requests: number;
  rowsWritten: number;
  /** null: still running (or the process died during it). */
  outcome: string | null;
  error: string | null;
}

export type Arrival = 'webhook' | 'backfill' | 'both';

export interface ViewAlerts {
  viewId: string;
  viewName: string;
  total: number;
  /** Aligned with AlertsData.days. */
  perDay: Record<Arrival, number>[];
}

export interface AlertsData {
  /** The last 30 UTC days, oldest first. */
  days: string[];
  views: ViewAlerts[];
}

/** A configured job as the scheduler reports it (the daemon) or as the config says (status --html). */
export interface JobLine {
  name: string;
  enabled: boolean;
  schedule: string;
  timeZone: string | null;
  mode: string;
  streams: string[];
  running: boolean;
  nextRunAt: string | null;
  lastOutcome: string | null;
  lastFinishedAt: string | null;
  lastSuccessAt: string | null;
}

export interface StatusData {
  generatedAt: string;
  /** Who serves it: the daemon (refreshes itself) or a file written by `status --html`. */
  source: 'daemon' | 'file';
  streams: StreamLine[];
  families: FamilyLine[];
  runs: RunLine[];
  alerts: AlertsData;
  jobs: JobLine[];
  deliveries: { received: number; lastReceivedAt: string | null };
  /** The schedule's quota problems, one line each (as `ds-mirror budget` says them). */
  problems: string[];
  /** Configured monitoring views that do not resolve: the receiver refuses their deliveries. */
  unresolvedViews: string[];
  /** The changes of the service's shape the mirror saw (v_schema_changes), the last seen first. */
  schemaChanges: SchemaChange[];
}
