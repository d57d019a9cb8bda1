// The /metrics families only this process knows: its HTTP calls to the service, the deliveries its
// receiver refused or took again, and its jobs. Counters only go up: job runs are counted as they end;
// the client and the receiver keep their own running counts, which each scrape adds on since the last.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { ClientStats } from '../client/index.js';
import type { ReceiverStats } from '../receiver/index.js';

/** What the job metrics read of a job: the scheduler's JobStatus has these (observability knows no scheduler). */
export interface JobSample {
  name: string;
  running: boolean;
  lastSuccessAt: string | null;
  nextRunAt: string | null;
}

/** A finished job run, as the metrics count it. */
export interface JobRunSample {
  job: string;
  outcome: string;
  durationMs: number;
}

const DURATION_BUCKETS = [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600, 4 * 3600];

type AddRunningCount = (labels: Record<string, string>, total: number) => void;

/**
 * A counter that follows running counts read at scrape time: each scrape adds what a count gained since
 * the highest value seen (a client's count can step back when its quota gate refuses a request).
 */
function followingCounter(
  registry: Registry,
  name: string,
  help: string,
  labelNames: string[],
  read: (add: AddRunningCount) => void,
): void {
  const seen = new Map<string, number>();
  new Counter({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      read((labels, total) => {
        const key = JSON.stringify(labels);
        const before = seen.get(key) ?? 0;
        if (total > before) {
          this.inc(labels, total - before);
          seen.set(key, total);
        }
      });
    },
  });
}

export function registerClientMetrics(registry: Registry, client: { readonly stats: Readonly<ClientStats> }): void {
  followingCounter(
    registry,
    'ds_mirror_http_requests_total',
    'HTTP requests to the service from this process (retries included)',
    ['family'],
    (add) => {
      for (const [family, n] of Object.entries(client.stats.byFamily)) add({ family }, n);
    },
  );
  followingCounter(registry, 'ds_mirror_http_retries_total', 'HTTP requests retried by this process', [], (add) =>
    add({}, client.stats.retries),
  );
  followingCounter(registry, 'ds_mirror_http_errors_total', 'HTTP calls that failed after their retries, this process', [], (add) =>
    add({}, client.stats.errors),
  );
}

export function registerReceiverMetrics(registry: Registry, receiver: () => ReceiverStats | null): void {
  followingCounter(
    registry,
    'ds_mirror_webhook_deliveries_duplicate_total',
    'Deliveries acknowledged again (already stored), this process',
    [],
    (add) => {
      add({}, receiver()?.duplicates ?? 0);
    },
  );
  followingCounter(
    registry,
    'ds_mirror_webhook_deliveries_set_aside_total',
    'Signed deliveries stored whole but not read as an alert (webhook_set_aside: another shape), this process',
    [],
    (add) => {
      add({}, receiver()?.setAside ?? 0);
    },
  );
  followingCounter(
    registry,
    'ds_mirror_webhook_deliveries_refused_total',
    'Deliveries refused by this process, by reason',
    ['reason'],
    (add) => {
      for (const [reason, n] of Object.entries(receiver()?.refused ?? {})) add({ reason }, n);
    },
  );
}

export interface JobMetrics {
  finished(e: JobRunSample): void;
  skipped(job: string): void;
}

export function registerJobMetrics(registry: Registry, jobs: () => JobSample[]): JobMetrics {
  const registers = [registry];
  const jobGauge = (name: string, help: string, value: (j: JobSample) => number | null) =>
    new Gauge({
      name,
      help,
      labelNames: ['job'],
      registers,
      collect() {
        this.reset();
        for (const j of jobs()) {
          const v = value(j);
          if (v !== null) this.set({ job: j.name }, v);
        }
      },
    });
  jobGauge('ds_mirror_job_running', '1 while the job runs', (j) => (j.running ? 1 : 0));
  jobGauge('ds_mirror_job_last_success_timestamp_seconds', 'When the job last ended in success or partial', (j) =>
    seconds(j.lastSuccessAt),
  );
  jobGauge('ds_mirror_job_next_run_timestamp_seconds', 'When the job runs next', (j) => seconds(j.nextRunAt));
  const runs = new Counter({
    name: 'ds_mirror_job_runs_total',
    help: 'Job runs in this process, by outcome',
    labelNames: ['job', 'outcome'],
    registers,
  });
  const skips = new Counter({
    name: 'ds_mirror_job_skipped_total',
    help: 'Ticks skipped because the job (or its streams) was still running',
    labelNames: ['job'],
    registers,
  });
  const durations = new Histogram({
    name: 'ds_mirror_job_duration_seconds',
    help: 'Job run durations',
    labelNames: ['job', 'outcome'],
    buckets: DURATION_BUCKETS,
    registers,
  });
  return {
    finished(e) {
      runs.inc({ job: e.job, outcome: e.outcome });
      durations.observe({ job: e.job, outcome: e.outcome }, e.durationMs / 1000);
    },
    skipped(job) {
      skips.inc({ job });
    },
  };
}

function seconds(iso: string | null): number | null {
  return iso ? Date.parse(iso) / 1000 : null;
}
