// Monitoring streams against the sandbox at scale 10 (20,000 events, ~110,000 developments), into a
// fresh SQLite file: a first full sync, a second run with nothing changed, then a day of change on the
// sandbox clock followed by an incremental run and a full pass. Reports events per second and the
// development-detail fetches the incremental rule saves (details fetched vs developments listed).
// The sandbox runs in a child process so that it does not share the mirror's event loop.
//   npx tsx bench/monitoring.ts [--scale 10]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { resolveStreams } from '../src/catalog/index.js';
import { createClient, type ApiClient } from '../src/client/index.js';
import { openStore, type Store } from '../src/store/index.js';
import type { SyncSettings } from '../src/sync/context.js';
import { runSync } from '../src/sync/engine.js';
import { createMonitoringService } from '../sandbox/monitoring/index.js';
import { startSandboxProcess } from './sandbox-process.js';
import { monitoringParams } from '../src/catalog/query-params.js';
import { MIRROR_SCHEMA } from '../src/mirror-schema/index.js';

const SEED = 42;
const VIEWS = 5;

interface Measured {
  label: string;
  seconds: number;
  eventsListed: number;
  developmentsListed: number;
  details: number;
  requests: number;
  writes: number;
}

async function measure(label: string, store: Store, sandbox: { url: string; apiKey: string }, settings: SyncSettings): Promise<Measured> {
  const fast = { requestsPerMinute: 100_000_000, concurrency: 16 };
  const client = createClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, limits: { monitoring: fast, tokenUnlocks: fast } });
  const listed = { events: 0, developments: 0, details: 0 };
  // Every call the sync makes, through whichever counting view of the client it takes.
  const listing = (inner: ApiClient): ApiClient => ({
    stats: inner.stats,
    service: inner.service,
    close: () => inner.close(),
    counting: (counter) => listing(inner.counting(counter)),
    getBytes: (path, query) => inner.getBytes(path, query),
    async get<T>(path: string, query?: Parameters<ApiClient['get']>[1]): Promise<T> {
      const body = await inner.get<T>(path, query);
      if (path === '/monitoring/v2/events') {
        const events = (body as { data: { developments: unknown[] }[] }).data;
        listed.events += events.length;
        listed.developments += events.reduce((n, e) => n + e.developments.length, 0);
      } else if (path.startsWith('/monitoring/v2/developments/')) listed.details++;
      return body;
    },
  });
  const started = performance.now();
  try {
    const result = await runSync({
      client: listing(client),
      store,
      logger: pino({ level: 'silent' }),
      settings,
      streams: resolveStreams(['monitoring']),
    });
    if (result.outcome !== 'success') throw new Error(`${label}: ${JSON.stringify(result.streams.filter((s) => s.outcome !== 'success'))}`);
    return {
      label,
      seconds: (performance.now() - started) / 1000,
      eventsListed: listed.events,
      developmentsListed: listed.developments,
      details: listed.details,
      requests: client.stats.requests,
      writes: result.streams.reduce((n, s) => n + s.inserted + s.updated + s.deleted, 0),
    };
  } finally {
    await client.close();
  }
}

export async function benchMonitoring(opts: { scale?: number } = {}): Promise<string> {
  const scale = opts.scale ?? 10;
  // The view ids are seeded: the same service in-process names them without a request.
  const local = createMonitoringService({ seed: SEED, scale, profile: 'default', apiKey: 'unused', now: () => new Date() });
  const views = local
    .views()
    .slice(0, VIEWS)
    .map((v) => v.id);
  const sizes = local.sizes;
  await local.close();
  const sandbox = await startSandboxProcess(scale, SEED);
  const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-bench-monitoring-'));
  const store = await openStore({ migrations: MIRROR_SCHEMA, url: `sqlite:${join(dir, 'mirror.db')}` });
  const settings = (mode: SyncSettings['mode']): SyncSettings => ({
    mode,
    pageWindow: 4,
    lookbackDays: {},
    selection: {},
    fanout: { metricProjects: [] },
    fanoutConcurrency: 16,
    monitoring: { views, events: {}, tokenUnlocks: {}, fullPassEveryHours: 24, params: monitoringParams() },
  });
  try {
    const runs: Measured[] = [];
    runs.push(await measure('first sync (full)', store, sandbox, settings('full')));
    runs.push(await measure('second run, nothing changed', store, sandbox, settings('incremental')));
    await sandbox.advance({ seconds: 86_400 });
    runs.push(await measure('after 1 day of change: incremental', store, sandbox, settings('incremental')));
    runs.push(await measure('after 1 day of change: full pass', store, sandbox, settings('full')));
    const rows = runs.map((r) => {
      const saved = r.developmentsListed - r.details;
      return `| ${r.label} | ${r.seconds.toFixed(1)} | ${r.eventsListed} | ${Math.round(r.eventsListed / r.seconds)} | ${r.developmentsListed} | ${r.details} | ${saved} (${r.developmentsListed ? Math.round((100 * saved) / r.developmentsListed) : 0}%) | ${r.requests} | ${r.writes} |`;
    });
    return [
      `## Monitoring streams (scale ${scale}: ${sizes.events} events, ${sizes.tokenUnlocks} token-unlock assets, ${VIEWS} of ${sizes.views} views)`,
      '',
      'Sandbox in a child process on loopback, SQLite (WAL), monitoring lane at concurrency 16 with no rate limit. ' +
        'Events/s = events listed per second of the whole run (all four streams, details included). ' +
        'Details saved = developments listed in the fetched pages whose detail was not fetched (the incremental rule: ' +
        'only new developments or changed summaries).',
      '',
      '| run | seconds | events listed | events/s | developments listed | details fetched | details saved | requests | rows written |',
      '|---|---|---|---|---|---|---|---|---|',
      ...rows,
      '',
    ].join('\n');
  } finally {
    await store.close();
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const i = process.argv.indexOf('--scale');
  process.stdout.write(await benchMonitoring({ scale: i > 0 ? Number(process.argv[i + 1]) : undefined }));
}
