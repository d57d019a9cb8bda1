// The daemon's /metrics in Prometheus text format. Mirror totals (rows, requests, errors, lag, deliveries
// received) are read from the database at scrape time, so they match `ds-mirror status`, survive
// restarts and include the work of other workers; what only this process knows (HTTP retries, refused
// deliveries, job runs and their durations) is counted here.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ClientStats } from '../client/index.js';
import type { ReceiverStats } from '../receiver/index.js';
import type { Store } from '../store/types.js';
import { readMirrorStats } from './mirror-stats.js';
import type { JobFinished, JobStatus } from './scheduler.js';

export interface MetricsSources {
  store: Store;
  client: { readonly stats: Readonly<ClientStats> };
  receiver: () => ReceiverStats | null;
  jobs: () => JobStatus[];
}

export interface DaemonMetrics {
  readonly contentType: string;
  jobFinished(e: JobFinished): void;
  jobSkipped(job: string): void;
  /** Reads the database and renders every metric. */
  render(): Promise<string>;
}

const DURATION_BUCKETS = [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600, 4 * 3600];

export function createDaemonMetrics(src: MetricsSources): DaemonMetrics {
  const registers = [new Registry()];
  const [registry] = registers;
  collectDefaultMetrics({ register: registry, prefix: 'ds_mirror_' });
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
    new Counter<L>({ name, help, labelNames, registers });
  const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
    new Gauge<L>({ name, help, labelNames, registers });

  const rows = counter('ds_mirror_rows_synced_total', 'Rows written to the mirror, by stream and change', ['stream', 'change']);
  const fetched = counter('ds_mirror_records_fetched_total', 'Records received from the service, by stream', ['stream']);
  const streamRequests = counter('ds_mirror_stream_requests_total', 'HTTP requests made for a stream (all workers)', ['stream']);
  const streamErrors = counter('ds_mirror_stream_errors_total', 'Records quarantined and stream failures', ['stream']);
  const streamFailures = counter('ds_mirror_stream_failed_passes_total', 'Stream passes that failed', ['stream']);
  const lag = gauge('ds_mirror_stream_lag_seconds', 'Seconds since the stream last synced successfully', ['stream']);
  const lastSuccess = gauge('ds_mirror_stream_last_success_timestamp_seconds', 'When the stream last synced successfully', ['stream']);
  const lastDuration = gauge('ds_mirror_stream_last_duration_seconds', 'Duration of the stream\'s last pass', ['stream']);
  const resumes = gauge('ds_mirror_stream_checkpoint_pending', '1 when an interrupted pass will be resumed', ['stream']);
  const received = counter('ds_mirror_webhook_deliveries_received_total', 'Webhook deliveries stored (all receivers)');
  const duplicates = counter('ds_mirror_webhook_deliveries_duplicate_total', 'Deliveries acknowledged again (already stored), this process');
  const refused = counter('ds_mirror_webhook_deliveries_refused_total', 'Deliveries refused by this process, by reason', ['reason']);
  const httpRequests = counter('ds_mirror_http_requests_total', 'HTTP requests to the service from this process (retries included)', ['family']);
  const httpRetries = counter('ds_mirror_http_retries_total', 'HTTP requests retried by this process');
  const httpErrors = counter('ds_mirror_http_errors_total', 'HTTP calls that failed after their retries, this process');
  const jobRunning = gauge('ds_mirror_job_running', '1 while the job runs', ['job']);
  const jobSuccess = gauge('ds_mirror_job_last_success_timestamp_seconds', 'When the job last ended in success or partial', ['job']);
  const jobNext = gauge('ds_mirror_job_next_run_timestamp_seconds', 'When the job runs next', ['job']);
  const jobRuns = counter('ds_mirror_job_runs_total', 'Job runs in this process, by outcome', ['job', 'outcome']);
  const jobSkipped = counter('ds_mirror_job_skipped_total', 'Ticks skipped because the job (or its streams) was still running', ['job']);
  const jobDuration = new Histogram<'job' | 'outcome'>({
    name: 'ds_mirror_job_duration_seconds', help: 'Job run durations', labelNames: ['job', 'outcome'], buckets: DURATION_BUCKETS, registers,
  });

  async function refresh(): Promise<void> {
    const stats = await readMirrorStats(src.store);
    for (const m of [rows, fetched, streamRequests, streamErrors, streamFailures, lag, lastSuccess, lastDuration, resumes, received]) m.reset();
    for (const s of stats.streams) {
      const stream = s.stream;
      rows.inc({ stream, change: 'inserted' }, s.inserted);
      rows.inc({ stream, change: 'updated' }, s.updated);
      rows.inc({ stream, change: 'deleted' }, s.deleted);
      fetched.inc({ stream }, s.fetched);
      streamRequests.inc({ stream }, s.requests);
      streamErrors.inc({ stream }, s.errors);
      streamFailures.inc({ stream }, s.failures);
      resumes.set({ stream }, s.resumes ? 1 : 0);
      if (s.lagSeconds !== null) lag.set({ stream }, s.lagSeconds);
      if (s.lastSuccessAt !== null) lastSuccess.set({ stream }, Date.parse(s.lastSuccessAt) / 1000);
      if (s.lastDurationMs !== null) lastDuration.set({ stream }, s.lastDurationMs / 1000);
    }
    received.inc(stats.deliveries.received);

    for (const m of [duplicates, refused, httpRequests, httpRetries, httpErrors, jobRunning, jobSuccess, jobNext]) m.reset();
    const receiver = src.receiver();
    if (receiver) {
      duplicates.inc(receiver.duplicates);
      for (const [reason, n] of Object.entries(receiver.refused)) refused.inc({ reason }, n);
    }
    const client = src.client.stats;
    for (const [family, n] of Object.entries(client.byFamily)) httpRequests.inc({ family }, n);
    httpRetries.inc(client.retries);
    httpErrors.inc(client.errors);
    for (const j of src.jobs()) {
      jobRunning.set({ job: j.name }, j.running ? 1 : 0);
      if (j.lastSuccessAt) jobSuccess.set({ job: j.name }, Date.parse(j.lastSuccessAt) / 1000);
      if (j.nextRunAt) jobNext.set({ job: j.name }, Date.parse(j.nextRunAt) / 1000);
    }
  }

  // One scrape at a time: refresh() resets and refills the same metrics.
  let last: Promise<string> = Promise.resolve('');
  return {
    contentType: registry.contentType,
    jobFinished(e) {
      jobRuns.inc({ job: e.job, outcome: e.outcome });
      jobDuration.observe({ job: e.job, outcome: e.outcome }, e.durationMs / 1000);
    },
    jobSkipped(job) {
      jobSkipped.inc({ job });
    },
    render() {
      last = last.catch(() => '').then(async () => {
        await refresh();
        return registry.metrics();
      });
      return last;
    },
  };
}
