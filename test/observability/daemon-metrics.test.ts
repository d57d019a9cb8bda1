// /metrics as the daemon renders it, on both stores: the database families read at scrape time (catalog
// streams only, pseudo-streams never), process counters that only go up however often it is scraped,
// and every metric docs/operations.md documents.
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ClientStats } from '../../src/client/index.js';
import type { ReceiverStats } from '../../src/receiver/index.js';
import { createDaemonMetrics } from '../../src/observability/daemon-metrics.js';
import type { JobStatus } from '../../src/scheduler/index.js';
import type { StreamRunStats } from '../../src/store/types.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { parseMetrics } from '../scheduler/scrape.js';

const README = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
/** The metric names of docs/operations.md's /metrics table (not the prom-client defaults, `ds_mirror_process_*`). */
const DOCUMENTED = [
  ...README.slice(README.indexOf('| metric | labels | from |'))
    .split('\n\n')[0]
    .matchAll(/`(ds_mirror_[a-z_]+)`/g),
].map((m) => m[1]);

function pass(stream: string, outcome: StreamRunStats['outcome'], n: number): StreamRunStats {
  return {
    stream,
    fetched: n,
    inserted: n,
    updated: 1,
    unchanged: 0,
    deleted: 2,
    errors: outcome === 'failed' ? 1 : 0,
    requests: 3,
    durationMs: 1500,
    outcome,
  };
}

describe.each(dialects)('/metrics on %s', (dialect) => {
  let t: TestStore;
  beforeEach(async () => {
    t = await openTestStore(dialect);
  });
  afterEach(() => t.cleanup());

  it('reads the mirror at scrape time, lists catalog streams only, and counts process events once', async () => {
    const { store } = t;
    const run = await store.startRun(['glossary', 'chains', 'retired-stream'], 'incremental', new Date().toISOString());
    await store.finishStream(run, pass('glossary', 'success', 10), new Date().toISOString());
    await store.transaction((tx) => tx.saveCheckpoint('chains', { page: 4 }));
    await store.finishStream(run, pass('chains', 'failed', 5), new Date().toISOString());
    await store.finishStream(run, pass('retired-stream', 'success', 7), new Date().toISOString());
    await store.transaction((tx) => tx.saveCheckpoint('monitoring-events:full-pass', { fullAt: new Date().toISOString() }));

    const client: { stats: ClientStats } = {
      stats: {
        requests: 3,
        retries: 1,
        errors: 0,
        byFamily: { v1: 3, charts: 0, tokenUnlocks: 0, monitoring: 0, open: 0 },
        stopped: new Map(),
        clockOffsetMs: null,
      },
    };
    const receiver: ReceiverStats = { received: 2, duplicates: 1, commits: 1, setAside: 0, refused: { bad_signature: 2 } };
    const job: JobStatus = {
      name: 'hourly',
      schedule: '0 * * * *',
      timeZone: null,
      mode: 'incremental',
      streams: ['glossary'],
      running: true,
      nextRunAt: '2026-11-23T20:00:00.000Z',
      lastStartedAt: null,
      lastFinishedAt: null,
      lastOutcome: null,
      lastSuccessAt: null,
      lastError: null,
      lastRunId: null,
      runs: 0,
      skipped: 0,
    };
    const metrics = createDaemonMetrics({ store, client, receiver: () => receiver, jobs: () => [job] });
    metrics.jobFinished({ job: 'hourly', outcome: 'success', durationMs: 2000 });
    metrics.jobSkipped('hourly');

    const first = parseMetrics(await metrics.render());
    expect(first.get('ds_mirror_rows_synced_total{stream="glossary",change="inserted"}')).toBe(10);
    expect(first.get('ds_mirror_rows_synced_total{stream="chains",change="deleted"}')).toBe(2);
    expect(first.get('ds_mirror_records_fetched_total{stream="chains"}')).toBe(5);
    expect(first.get('ds_mirror_stream_failed_passes_total{stream="chains"}')).toBe(1);
    expect(first.get('ds_mirror_stream_failed_passes_total{stream="glossary"}')).toBe(0);
    expect(first.get('ds_mirror_stream_checkpoint_pending{stream="chains"}')).toBe(1);
    expect(first.get('ds_mirror_stream_checkpoint_pending{stream="glossary"}')).toBe(0);
    expect(first.get('ds_mirror_stream_last_duration_seconds{stream="glossary"}')).toBe(1.5);
    expect(first.has('ds_mirror_stream_lag_seconds{stream="chains"}')).toBe(false); // never succeeded
    expect(first.get('ds_mirror_webhook_deliveries_received_total')).toBe(0);
    expect(first.get('ds_mirror_http_requests_total{family="v1"}')).toBe(3);
    expect(first.get('ds_mirror_webhook_deliveries_refused_total{reason="bad_signature"}')).toBe(2);
    expect(first.get('ds_mirror_job_running{job="hourly"}')).toBe(1);
    expect(first.get('ds_mirror_job_next_run_timestamp_seconds{job="hourly"}')).toBe(Date.parse(job.nextRunAt!) / 1000);
    expect(first.get('ds_mirror_job_runs_total{job="hourly",outcome="success"}')).toBe(1);
    expect(first.get('ds_mirror_job_skipped_total{job="hourly"}')).toBe(1);
    const streams = new Set([...first.keys()].flatMap((k) => /stream="([^"]*)"/.exec(k)?.[1] ?? []));
    expect([...streams].sort()).toEqual(['chains', 'glossary']);

    // What happens between scrapes is added once; what did not happen is not counted again.
    client.stats.retries += 2;
    client.stats.byFamily.v1 += 2;
    receiver.refused.bad_signature! += 1;
    const now = new Date().toISOString();
    await store.finishStream(await store.startRun(['glossary'], 'incremental', now), pass('glossary', 'success', 4), now);
    const second = parseMetrics(await metrics.render());
    expect(second.get('ds_mirror_http_retries_total')).toBe(3);
    expect(second.get('ds_mirror_http_requests_total{family="v1"}')).toBe(5);
    expect(second.get('ds_mirror_webhook_deliveries_refused_total{reason="bad_signature"}')).toBe(3);
    expect(second.get('ds_mirror_webhook_deliveries_duplicate_total')).toBe(1);
    expect(second.get('ds_mirror_rows_synced_total{stream="glossary",change="inserted"}')).toBe(14);
    expect(second.get('ds_mirror_job_runs_total{job="hourly",outcome="success"}')).toBe(1);

    const text = await metrics.render();
    expect(DOCUMENTED.length).toBeGreaterThan(20);
    expect(DOCUMENTED.filter((name) => !text.includes(`# TYPE ${name} `))).toEqual([]);
  });
});
