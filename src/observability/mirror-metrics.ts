// The /metrics families read from the database at scrape time (prom-client's collect()), so they match
// `ds-mirror status`, survive restarts and include every worker's runs. They are gauges: each holds the
// database's current total, not something this process counted.
import { Gauge, type Registry } from 'prom-client';
import type { Store } from '../store/types.js';
import { readMirrorStats, type MirrorStats, type StreamTotals } from './mirror-stats.js';

type PerStream = readonly [name: string, help: string, value: (s: StreamTotals) => number | null];

const PER_STREAM: readonly PerStream[] = [
  ['ds_mirror_records_fetched_total', 'Records received from the service, by stream', (s) => s.fetched],
  ['ds_mirror_stream_requests_total', 'HTTP requests made for a stream (all workers)', (s) => s.requests],
  ['ds_mirror_stream_errors_total', 'Records quarantined and stream failures', (s) => s.errors],
  ['ds_mirror_stream_failed_passes_total', 'Stream passes that failed', (s) => s.failures],
  ['ds_mirror_stream_lag_seconds', 'Seconds since the stream last synced successfully', (s) => s.lagSeconds],
  [
    'ds_mirror_stream_last_success_timestamp_seconds',
    'When the stream last synced successfully',
    (s) => (s.lastSuccessAt === null ? null : Date.parse(s.lastSuccessAt) / 1000),
  ],
  [
    'ds_mirror_stream_last_duration_seconds',
    "Duration of the stream's last pass",
    (s) => (s.lastDurationMs === null ? null : s.lastDurationMs / 1000),
  ],
  ['ds_mirror_stream_checkpoint_pending', '1 when an interrupted pass will be resumed', (s) => (s.resumes ? 1 : 0)],
];

const CHANGES = ['inserted', 'updated', 'deleted'] as const;

/** One database read per scrape: every family's collect() of a scrape shares it (they start together). */
function readOncePerScrape(store: Store): () => Promise<MirrorStats> {
  let reading: Promise<MirrorStats> | null = null;
  return () => (reading ??= readMirrorStats(store).finally(() => (reading = null)));
}

export function registerMirrorMetrics(registry: Registry, store: Store): void {
  const stats = readOncePerScrape(store);
  const registers = [registry];
  for (const [name, help, value] of PER_STREAM) {
    new Gauge({
      name,
      help,
      labelNames: ['stream'],
      registers,
      async collect() {
        const { streams } = await stats();
        this.reset();
        for (const s of streams) {
          const v = value(s);
          if (v !== null) this.set({ stream: s.stream }, v);
        }
      },
    });
  }
  new Gauge({
    name: 'ds_mirror_rows_synced_total',
    help: 'Rows written to the mirror, by stream and change',
    labelNames: ['stream', 'change'],
    registers,
    async collect() {
      const { streams } = await stats();
      this.reset();
      for (const s of streams) for (const change of CHANGES) this.set({ stream: s.stream, change }, s[change]);
    },
  });
  new Gauge({
    name: 'ds_mirror_schema_changes',
    help: "Changes of the service's shape seen (v_schema_changes), by stream, kind (new, missing, other type) and outcome",
    labelNames: ['stream', 'kind', 'outcome'],
    registers,
    async collect() {
      const rows = await store.db
        .selectFrom('schema_changes')
        .select((eb) => ['stream', 'kind', 'outcome', eb.fn.countAll().as('n')])
        .groupBy(['stream', 'kind', 'outcome'])
        .execute();
      this.reset();
      for (const r of rows) this.set({ stream: r.stream, kind: r.kind, outcome: r.outcome }, Number(r.n));
    },
  });
  new Gauge({
    name: 'ds_mirror_webhook_deliveries_received_total',
    help: 'Webhook deliveries stored (all receivers)',
    registers,
    async collect() {
      this.set((await stats()).deliveries.received);
    },
  });
}
