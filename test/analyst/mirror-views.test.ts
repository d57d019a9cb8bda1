// @end-to-end
// The mirror describes itself in SQL, on both stores: v_streams (each catalog stream's table, the jobs
// and schedules that keep it, its last success, live rows, age and staleness), v_jobs (the jobs as
// configured and as they ran), v_runs (every run: job, streams, requests, what it changed) and the
// per-minute allowance in v_usage. The catalog is recorded by every sync, the jobs by the daemon and
// `ds-mirror sync` (recordJobs); nothing is typed in by hand.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { UsageLedger } from '../../src/budget/usage-ledger.js';
import { allStreams, resolveStreams } from '../../src/catalog/index.js';
import { configureJobs } from '../../src/scheduler/configure-jobs.js';
import { defaultJobs } from '../../src/scheduler/job-files.js';
import { recordJobs, staleAfterSeconds } from '../../src/scheduler/record-jobs.js';
import type { Store } from '../../src/store/index.js';
import { runSync } from '../../src/sync/engine.js';
import { fastClient, NO_DETAILS, settings, silent } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { neutral } from './analyst-fixture.js';

type Rows = Record<string, unknown>[];

async function rows(store: Store, query: string): Promise<Rows> {
  const { rows } = await sql.raw<Record<string, unknown>>(query).execute(store.db);
  return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, neutral(v)])));
}

// The views describe runs, not what a run wrote: no development's detail is fetched (one request each, most
// of an events sync's cost).
const LISTS_ONLY = settings({ monitoring: { ...settings().monitoring, details: NO_DETAILS } });

async function runJob(store: Store, sb: Sandbox, job: string, streams: string[]) {
  const client = fastClient(sb);
  try {
    const result = await runSync({ client, store, logger: silent, settings: LISTS_ONLY, streams: resolveStreams(streams), job });
    return { ...result, requests: client.stats.requests };
  } finally {
    await client.close();
  }
}

describe.each(dialects)('the mirror in SQL (%s)', (dialect) => {
  let sb: Sandbox;
  let t: TestStore;
  let first: Awaited<ReturnType<typeof runJob>>;
  let quiet: Awaited<ReturnType<typeof runJob>>;
  const jobs = configureJobs(defaultJobs, { 'weekly-charts': { enabled: false } }, 'UTC');

  beforeAll(async () => {
    sb = await startSandbox({ scale: 0.05, seed: 3, start: PINNED_START });
    t = await openTestStore(dialect);
    await recordJobs(t.store, jobs, new Date());
    first = await runJob(t.store, sb, 'daily-catalog', ['transparency', 'chains', 'monitoring-events']);
    quiet = await runJob(t.store, sb, 'monitoring-events', ['monitoring-events']);
  }, 120_000);
  afterAll(async () => {
    await t?.cleanup();
    await sb?.close();
  });

  it("v_streams: every catalog stream with its table, the receiver's deliveries, and the jobs that keep them", async () => {
    const streams = await rows(t.store, 'select * from v_streams order by stream');
    expect(streams.map((s) => [s.stream, s.table_name])).toEqual(
      [...allStreams().map((s) => [s.name, s.table]), ['webhook-deliveries', 'webhook_deliveries']].sort(([a], [b]) => (a! < b! ? -1 : 1)),
    );
    const events = streams.find((s) => s.stream === 'monitoring-events')!;
    expect(events).toMatchObject({ jobs: 'monitoring-events', schedules: '*/5 * * * *', interval_seconds: 300 });
    expect(events.stale_after_seconds).toBe(staleAfterSeconds(300));
    expect(streams.find((s) => s.stream === 'assets')).toMatchObject({ jobs: 'monthly-assets', schedules: '30 4 1 * *' });
    // The longest gap of a monthly schedule is a 31-day month's.
    expect(streams.find((s) => s.stream === 'assets')!.interval_seconds).toBe(31 * 86_400);
    // A disabled job keeps nothing.
    expect(streams.find((s) => s.stream === 'charts')).toMatchObject({ jobs: null, schedules: null, stale: null });
  });

  it('v_streams: last success, live rows, age and staleness', async () => {
    const byName = new Map((await rows(t.store, 'select * from v_streams')).map((s) => [s.stream, s]));
    for (const name of ['transparency', 'chains', 'monitoring-events']) {
      const s = byName.get(name)!;
      const table = String(s.table_name);
      const [{ n }] = await rows(t.store, `select count(*) as n from ${table} where deleted_at is null`);
      expect(Number(n)).toBeGreaterThan(0);
      expect(s.live_rows).toBe(Number(n));
      expect(s.last_success_at).not.toBeNull();
      expect(s.last_outcome).toBe('success');
      expect(Number(s.age_seconds)).toBeGreaterThanOrEqual(0);
      expect(Number(s.age_seconds)).toBeLessThan(600);
      expect(s.stale).toBe(0);
    }
    expect(byName.get('monitoring-events')!.last_run_id).toBe(quiet.runId);
    // Kept by a job, never synced: stale. Synced, but longer ago than its schedule and grace allow: stale.
    expect(byName.get('sectors')).toMatchObject({ jobs: 'daily-catalog', last_success_at: null, stale: 1 });
    const old = new Date(Date.now() - (staleAfterSeconds(300) + 60) * 1000).toISOString();
    await t.store.db.updateTable('stream_state').set({ last_success_at: old }).where('stream', '=', 'monitoring-events').execute();
    const [late] = await rows(t.store, "select stale, age_seconds from v_streams where stream = 'monitoring-events'");
    expect(late!.stale).toBe(1);
    expect(Number(late!.age_seconds)).toBeGreaterThan(staleAfterSeconds(300));
  });

  it('v_jobs: each job as configured, with its last run and last success', async () => {
    const all = await rows(t.store, 'select * from v_jobs order by job');
    expect(all.map((j) => j.job)).toEqual(jobs.map((j) => j.name).sort());
    const events = all.find((j) => j.job === 'monitoring-events')!;
    expect(events).toMatchObject({ enabled: 1, mode: 'incremental', runs: 1, last_run_id: quiet.runId, last_outcome: 'success', stale: 0 });
    expect(events.streams).toEqual(['monitoring-events']);
    expect(all.find((j) => j.job === 'weekly-charts')).toMatchObject({ enabled: 0, runs: 0, stale: null });
    expect(all.find((j) => j.job === 'monthly-assets')).toMatchObject({ runs: 0, last_success_at: null, stale: 1 });
  });

  it('v_runs: each run with its job, streams, requests and what it changed', async () => {
    const runs = await rows(t.store, 'select * from v_runs order by run_id');
    expect(runs.map((r) => [r.run_id, r.job, r.outcome])).toEqual([
      [first.runId, 'daily-catalog', 'success'],
      [quiet.runId, 'monitoring-events', 'success'],
    ]);
    const [a, b] = runs as [Rows[number], Rows[number]];
    expect(a.streams).toEqual(['transparency', 'chains', 'monitoring-events']);
    expect(a).toMatchObject({ stream_count: 3, requests: first.requests, schedule: '10 3 * * *' });
    expect(Number(a.changed_rows)).toBe(first.streams.reduce((n, s) => n + s.inserted + s.updated + s.deleted, 0));
    expect(Number(a.changed_rows)).toBeGreaterThan(0);
    expect(b).toMatchObject({ stream_count: 1, requests: quiet.requests, changed_rows: 0, schedule: '*/5 * * * *' });
    expect(Number(b.duration_seconds)).toBeGreaterThanOrEqual(0);
  });

  it('v_usage: the per-minute allowance beside the day and the month', async () => {
    const ledger = new UsageLedger(t.store);
    const at = new Date();
    await ledger.reserve('monitoring', 7, { perMinute: 200 }, at);
    await ledger.recordQuotas('monitoring', { perMinute: 200 }, at);
    await ledger.reserve('v1', 3, { perMinute: 60, perMonth: 2500 }, at);
    await ledger.recordQuotas('v1', { perMinute: 60, perMonth: 2500 }, at);
    const usage = await rows(t.store, 'select family, requests, minute_quota, day_quota, month_quota from v_usage order by family');
    expect(usage).toEqual([
      { family: 'monitoring', requests: 7, minute_quota: 200, day_quota: null, month_quota: null },
      { family: 'v1', requests: 3, minute_quota: 60, day_quota: null, month_quota: 2500 },
    ]);
  });
});
