// The mirror described in SQL: its streams (which table each fills, which jobs keep it, how fresh it is)
// and its jobs, as configured and as run. The catalog and the jobs are code and files, so sync and the
// scheduler record what these views read (catalog_streams, scheduled_jobs, stream_schedules).
import { isoColumn, type ViewDialect } from './lift.js';
import type { ViewCatalog, ViewColumn, ViewSpec } from './view.js';

/** Whole seconds from a time to now. */
function ageOf(d: ViewDialect, time: string): string {
  return `cast(round(${d.secondsBetween(time)}) as ${d.integerType})`;
}

/** Stale: kept by a schedule, and never succeeded or not within the schedule's interval and its grace. */
function staleOf(d: ViewDialect, keeper: string, lastSuccess: string, staleAfter: string): string {
  return `case when ${keeper} is not null then (${lastSuccess} is null or ${d.secondsBetween(lastSuccess)} > ${staleAfter}) end`;
}

const FRESHNESS: readonly ViewColumn[] = [
  {
    name: 'interval_seconds',
    kind: 'integer',
    description: 'The longest time between two runs its schedule allows (computed from the cron schedule).',
  },
  {
    name: 'stale_after_seconds',
    kind: 'integer',
    description: 'interval_seconds plus a grace (a tenth of it, at least ten minutes): older than this, it is stale.',
  },
];

const streamColumns: readonly ViewColumn[] = [
  { name: 'stream', kind: 'text', description: 'The stream, as `ds-mirror sync` and the job files name it.' },
  { name: 'table_name', kind: 'text', description: 'The mirrored table it fills.' },
  { name: 'kind', kind: 'text', description: "'list' (a paged list), 'fanout' (per parent record) or 'custom' (the monitoring runners)." },
  { name: 'opt_in', kind: 'boolean', description: 'Whether it runs only when named (not part of `all`).' },
  { name: 'description', kind: 'text', description: 'What it mirrors.' },
  {
    name: 'jobs',
    kind: 'text',
    description:
      'The enabled scheduled jobs that run it, comma-separated, as the daemon or `ds-mirror sync` last recorded them; null when none.',
  },
  { name: 'schedules', kind: 'text', description: "Those jobs' cron schedules, in the same order." },
  ...FRESHNESS,
  { name: 'last_success_at', kind: 'timestamp', description: 'When its last successful pass ended; null when it never succeeded.' },
  { name: 'age_seconds', kind: 'integer', description: 'Seconds since last_success_at.' },
  {
    name: 'stale',
    kind: 'boolean',
    description:
      'True when a job keeps it and its last success is older than stale_after_seconds (or it never succeeded); null when no job keeps it.',
  },
  { name: 'last_run_id', kind: 'integer', description: 'The last run that ran it (v_runs.run_id).' },
  {
    name: 'last_outcome',
    kind: 'text',
    description: "That run's outcome for it: 'success', 'partial', 'skipped', 'stopped', 'failed' or 'interrupted'.",
  },
  { name: 'last_error', kind: 'text', description: 'The error of its last failed pass, if the last pass failed.' },
  {
    name: 'live_rows',
    kind: 'integer',
    description:
      'Live rows of its table as it is now (not soft-deleted; every row of a fan-out that keeps rows per parent), ' +
      'as `ds-mirror status` counts them: 0 for a stream never run.',
  },
  { name: 'counted_at', kind: 'timestamp', description: 'When live_rows was counted: when the view was read.' },
];

/**
 * Live rows per table the catalog's streams fill (handed in: schema/ cannot read the catalog), counted once each
 * when the view is read (a partial index on live keys makes most a count of an index).
 */
function liveRowsPerTable(d: ViewDialect, catalog: ViewCatalog): string {
  return catalog.streamTables
    .map(
      ({ table, softDeleted: soft }) =>
        `select '${table}' as table_name, cast(count(*) as ${d.integerType}) as live_rows from ${table}${soft ? ' where deleted_at is null' : ''}`,
    )
    .join('\n    union all ');
}

const jobColumns: readonly ViewColumn[] = [
  { name: 'job', kind: 'text', description: "The job's name (jobs/ and the user's jobsDir)." },
  { name: 'description', kind: 'text', description: 'What it does.' },
  { name: 'enabled', kind: 'boolean', description: 'Whether the daemon runs it.' },
  { name: 'schedule', kind: 'text', description: "Its cron schedule, after the config file's overrides." },
  { name: 'time_zone', kind: 'text', description: "The schedule's IANA time zone; null for the machine's local time." },
  { name: 'mode', kind: 'text', description: "'incremental' or 'full'." },
  { name: 'streams', kind: 'json', description: 'The streams and groups it names, as a JSON array.' },
  ...FRESHNESS,
  { name: 'runs', kind: 'integer', description: 'Runs it started (sync_runs).' },
  { name: 'last_run_id', kind: 'integer', description: 'Its last run (v_runs.run_id).' },
  { name: 'last_started_at', kind: 'timestamp', description: 'When its last run started.' },
  { name: 'last_outcome', kind: 'text', description: "Its last run's outcome; null while it runs." },
  { name: 'last_success_at', kind: 'timestamp', description: 'When its last successful (or partial) run ended.' },
  { name: 'age_seconds', kind: 'integer', description: 'Seconds since last_success_at.' },
  {
    name: 'stale',
    kind: 'boolean',
    description: 'True when enabled and its last success is older than stale_after_seconds (or it never succeeded).',
  },
  { name: 'recorded_at', kind: 'timestamp', description: 'When the daemon or `ds-mirror sync` recorded this definition.' },
];

const runColumns: readonly ViewColumn[] = [
  { name: 'run_id', kind: 'integer', description: 'The run (sync_runs.id).' },
  { name: 'job', kind: 'text', description: 'The scheduled job that started it; null for a `ds-mirror sync` by hand.' },
  { name: 'mode', kind: 'text', description: "'incremental' or 'full'." },
  { name: 'started_at', kind: 'timestamp', description: 'When it started.' },
  { name: 'finished_at', kind: 'timestamp', description: 'When it ended; null while it runs.' },
  { name: 'duration_seconds', kind: 'double', description: 'How long it took; null while it runs.' },
  {
    name: 'outcome',
    kind: 'text',
    description: "The worst of its streams' outcomes; null while it runs, 'interrupted' when its process died.",
  },
  { name: 'streams', kind: 'json', description: 'The streams it ran, as a JSON array.' },
  { name: 'stream_count', kind: 'integer', description: 'How many streams recorded a result.' },
  { name: 'requests', kind: 'integer', description: 'Requests its streams sent.' },
  { name: 'fetched', kind: 'integer', description: 'Records received.' },
  { name: 'inserted', kind: 'integer', description: 'Rows new to the mirror.' },
  { name: 'updated', kind: 'integer', description: 'Rows whose content changed.' },
  { name: 'deleted', kind: 'integer', description: 'Rows soft-deleted.' },
  { name: 'changed_rows', kind: 'integer', description: 'inserted + updated + deleted: 0 for a quiet run.' },
  { name: 'errors', kind: 'integer', description: 'Errors (records quarantined, failed streams).' },
  { name: 'schedule', kind: 'text', description: "The job's cron schedule as last recorded; null for a run by hand." },
];

/** The streams of the catalog as the last sync recorded them, with their tables' live rows now. */
function catalogStreams(d: ViewDialect, catalog: ViewCatalog): string {
  const success = isoColumn(d, 's.last_success_at');
  return `select c.stream, c.table_name, c.kind, c.opt_in, c.description,
  k.jobs, k.schedules, k.interval_seconds, k.stale_after_seconds,
  ${success} as last_success_at, ${ageOf(d, success)} as age_seconds,
  ${staleOf(d, 'k.stream', success, 'k.stale_after_seconds')} as stale,
  s.last_run_id, rs.outcome as last_outcome, s.last_error,
  coalesce(n.live_rows, 0) as live_rows, ${d.now} as counted_at
from catalog_streams c
  left join stream_schedules k on k.stream = c.stream
  left join stream_state s on s.stream = c.stream
  left join sync_run_streams rs on rs.run_id = s.last_run_id and rs.stream = c.stream
  left join (
    ${liveRowsPerTable(d, catalog)}
  ) n on n.table_name = c.table_name`;
}

/** The receiver's deliveries, a stream of their own as `ds-mirror status` lists them. */
function deliveriesStream(d: ViewDialect): string {
  const last = isoColumn(d, 'max(w.received_at)');
  return `select 'webhook-deliveries' as stream, 'webhook_deliveries' as table_name, 'receiver' as kind, ${d.toBoolean('0')} as opt_in,
  'Signed webhook deliveries received by \`ds-mirror receive\`, one row per delivery id.' as description,
  null as jobs, null as schedules, null as interval_seconds, null as stale_after_seconds,
  ${last} as last_success_at, ${ageOf(d, last)} as age_seconds,
  null as stale, null as last_run_id, null as last_outcome, null as last_error,
  cast(count(*) as ${d.integerType}) as live_rows, ${d.now} as counted_at
from webhook_deliveries w`;
}

export const mirrorViews: readonly ViewSpec[] = [
  {
    name: 'v_streams',
    description:
      'One row per stream the mirror knows: the table it fills, the jobs and schedules that keep it, its last success, ' +
      'its age and whether it is stale against its schedule, and its live rows now (what `ds-mirror status` says). Streams are ' +
      "recorded by every sync, jobs by the daemon and every `ds-mirror sync`; the receiver's deliveries are the stream " +
      '`webhook-deliveries`.',
    columns: streamColumns,
    sql: (d, catalog) =>
      // Computed columns, not bare ones: each is typed on its own (a compound's columns carry no declared type before 3.44).
      `select ${streamColumns.map((c) => `(u.${c.name}) as ${c.name}`).join(', ')}\nfrom (\n${d.unionSource([catalogStreams(d, catalog), deliveriesStream(d)], streamColumns)}\n) u`,
  },
  {
    name: 'v_jobs',
    description:
      "One row per scheduled job as the daemon or `ds-mirror sync` last recorded it (the job files with the config file's " +
      'overrides): its schedule and the interval it means, and how it has run: its last run, last success, age and staleness.',
    columns: jobColumns,
    sql: (d) => {
      const success = isoColumn(d, 'ok.finished_at');
      return `select j.job, j.description, j.enabled, j.schedule, j.time_zone, j.mode, j.streams,
  j.interval_seconds, j.stale_after_seconds,
  (select count(*) from sync_runs r where r.job = j.job) as runs,
  lr.id as last_run_id, ${isoColumn(d, 'lr.started_at')} as last_started_at, lr.outcome as last_outcome,
  ${success} as last_success_at, ${ageOf(d, success)} as age_seconds,
  ${staleOf(d, 'case when j.enabled then 1 end', success, 'j.stale_after_seconds')} as stale,
  ${isoColumn(d, 'j.recorded_at')} as recorded_at
from scheduled_jobs j
  left join sync_runs lr on lr.id = (select max(r.id) from sync_runs r where r.job = j.job)
  left join sync_runs ok on ok.id = (select max(r.id) from sync_runs r where r.job = j.job and r.outcome in ('success', 'partial'))`;
    },
  },
  {
    name: 'v_runs',
    description:
      'One row per sync run, scheduled or by hand: its job, when, the streams it ran, the requests it sent, what it ' +
      'changed (changed_rows 0: a quiet run) and its outcome. "The last run that changed a table": v_changes or ' +
      'sync_run_streams, not the newest run.',
    columns: runColumns,
    sql: (
      d,
    ) => `select r.id as run_id, r.job, r.mode, ${isoColumn(d, 'r.started_at')} as started_at, ${isoColumn(d, 'r.finished_at')} as finished_at,
  ${d.secondsBetween(isoColumn(d, 'r.started_at'), isoColumn(d, 'r.finished_at'))} as duration_seconds,
  r.outcome, r.streams,
  coalesce(t.stream_count, 0) as stream_count, coalesce(t.requests, 0) as requests, coalesce(t.fetched, 0) as fetched,
  coalesce(t.inserted, 0) as inserted, coalesce(t.updated, 0) as updated, coalesce(t.deleted, 0) as deleted,
  coalesce(t.inserted + t.updated + t.deleted, 0) as changed_rows, coalesce(t.errors, 0) as errors,
  j.schedule
from sync_runs r
  left join (
    select run_id, count(*) as stream_count, ${['requests', 'fetched', 'inserted', 'updated', 'deleted', 'errors']
      .map((c) => `cast(sum(${c}) as ${d.integerType}) as ${c}`)
      .join(', ')}
    from sync_run_streams group by run_id
  ) t on t.run_id = r.id
  left join scheduled_jobs j on j.job = r.job`,
  },
];
