// The daemon's /metrics in Prometheus text format: mirror totals read from the database at scrape time
// (mirror-metrics.ts), and what only this process knows, its HTTP calls, receiver and jobs
// (process-metrics.ts).
import { Registry, collectDefaultMetrics } from 'prom-client';
import type { ClientStats } from '../client/index.js';
import type { ReceiverStats } from '../receiver/index.js';
import type { Store } from '../store/types.js';
import { registerMirrorMetrics } from './mirror-metrics.js';
import {
  type JobRunSample,
  type JobSample,
  registerClientMetrics,
  registerJobMetrics,
  registerReceiverMetrics,
} from './process-metrics.js';

export interface MetricsSources {
  store: Store;
  client: { readonly stats: Readonly<ClientStats> };
  receiver: () => ReceiverStats | null;
  jobs: () => JobSample[];
}

export interface DaemonMetrics {
  readonly contentType: string;
  jobFinished(e: JobRunSample): void;
  jobSkipped(job: string): void;
  /** Reads the database and renders every metric. */
  render(): Promise<string>;
}

export function createDaemonMetrics(src: MetricsSources): DaemonMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'ds_mirror_' });
  registerMirrorMetrics(registry, src.store);
  registerClientMetrics(registry, src.client);
  registerReceiverMetrics(registry, src.receiver);
  const jobs = registerJobMetrics(registry, src.jobs);
  // One scrape at a time: the database read is shared by the families of one scrape only.
  let last: Promise<string> = Promise.resolve('');
  return {
    contentType: registry.contentType,
    jobFinished: (e) => jobs.finished(e),
    jobSkipped: (job) => jobs.skipped(job),
    render() {
      last = last.catch(() => '').then(() => registry.metrics());
      return last;
    },
  };
}
