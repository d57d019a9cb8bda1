// The scheduler's tables as Kysely sees them (Kysely<SchedulerTables>): the jobs as last configured, and
// per stream the jobs that keep it, which v_jobs and v_streams read.
import type { StoredBoolean } from '../store/index.js';

/** The jobs as last configured by the daemon or `ds-mirror jobs` (0045). */
export interface ScheduledJobsTable {
  job: string;
  description: string;
  schedule: string;
  time_zone: string | null;
  mode: string;
  enabled: StoredBoolean;
  streams: string;
  interval_seconds: number;
  stale_after_seconds: number;
  recorded_at: string;
}

/** Per stream, the enabled jobs that keep it (0045). */
export interface StreamSchedulesTable {
  stream: string;
  jobs: string;
  schedules: string;
  interval_seconds: number;
  stale_after_seconds: number;
  recorded_at: string;
}

/** The scheduler's tables (schema/migrations/0045). */
export interface SchedulerTables {
  scheduled_jobs: ScheduledJobsTable;
  stream_schedules: StreamSchedulesTable;
}
