// The mirror describes itself in SQL: the catalog's streams (which table each fills), the jobs as
// configured (schedule, streams, mode, the interval their cron schedule means) and, per stream, the jobs
// that keep it. The catalog and the jobs are code and JSON files the store does not read, so the code
// that knows them writes these rows (src/sync/record-streams.ts, src/scheduler/record-jobs.ts), and the
// views v_streams and v_jobs read them.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../src/store/types.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('catalog_streams')
    .addColumn('stream', t.text, (c) => c.primaryKey())
    .addColumn('table_name', t.text, (c) => c.notNull())
    .addColumn('kind', t.text, (c) => c.notNull())
    .addColumn('opt_in', t.boolean, (c) => c.notNull())
    .addColumn('description', t.text, (c) => c.notNull())
    .addColumn('live_rows', t.bigint)
    .addColumn('counted_at', t.timestamp)
    .addColumn('recorded_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('scheduled_jobs')
    .addColumn('job', t.text, (c) => c.primaryKey())
    .addColumn('description', t.text, (c) => c.notNull())
    .addColumn('schedule', t.text, (c) => c.notNull())
    .addColumn('time_zone', t.text)
    .addColumn('mode', t.text, (c) => c.notNull())
    .addColumn('enabled', t.boolean, (c) => c.notNull())
    .addColumn('streams', t.json, (c) => c.notNull())
    .addColumn('interval_seconds', t.bigint, (c) => c.notNull())
    .addColumn('stale_after_seconds', t.bigint, (c) => c.notNull())
    .addColumn('recorded_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('stream_schedules')
    .addColumn('stream', t.text, (c) => c.primaryKey())
    .addColumn('jobs', t.text, (c) => c.notNull())
    .addColumn('schedules', t.text, (c) => c.notNull())
    .addColumn('interval_seconds', t.bigint, (c) => c.notNull())
    .addColumn('stale_after_seconds', t.bigint, (c) => c.notNull())
    .addColumn('recorded_at', t.timestamp, (c) => c.notNull())
    .execute();
}
