// The mirror engine's benchmark, against the sandbox in a child process on loopback (so the numbers are the
// sync's own, peak RSS included). In one run: (a) a fetch-only baseline that pages through the same lists
// with the same client and pager and discards the rows, (b) a full first sync, (c) an incremental sync with
// nothing changed, (d) an incremental sync after 1% of records changed. Prints a markdown section.
// (a) and (b) are each measured warm, as steady state: (a) after a first pass over the pages, (b) after a
// first sync into a store thrown away (its cold time is reported beside).
// Then (a) and (b) once more with latency added to every request, as a real service has.
//   npx tsx bench/sync.ts [--scale 10] [--db sqlite|postgres://...] [--latency-ms 50]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveStreams } from '../src/catalog/index.js';
import type { ListStream } from '../src/catalog/types.js';
import { createClient } from '../src/client/index.js';
import { createLogger } from '../src/logger.js';
import { openStore } from '../src/store/index.js';
import { runSync, type RunResult } from '../src/sync/engine.js';
import { pages } from '../src/paging/pager.js';
import { syncSettings } from '../src/sync/settings.js';
import { listPaginator, listRequests, pageWindow } from '../src/requests/list-requests.js';
import { startSandboxProcess } from './sandbox-process.js';
import { copyBaselines } from './pg-copy-baseline.js';
import { sqliteFloor } from './sqlite-floor.js';
import { MIRROR_SCHEMA } from '../src/mirror-schema/index.js';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '10' },
    db: { type: 'string', default: 'sqlite' },
    'latency-ms': { type: 'string', default: '50' },
  },
});
const latencyMs = Number(values['latency-ms']);
const scale = Number(values.scale);
const logger = createLogger('warn');
const streams = resolveStreams(['v1']);
const lists = streams.filter((s): s is ListStream => s.kind === 'list');
const fast = { requestsPerMinute: 1e9, concurrency: 16 };
const limits = { v1: fast, charts: fast, open: fast, tokenUnlocks: fast, monitoring: fast };

const sandbox = await startSandboxProcess(scale);
const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-bench-'));
const pgSchema = values.db === 'sqlite' ? undefined : `bench_${process.pid}`;
const store = await openStore({
  migrations: MIRROR_SCHEMA,
  url: values.db === 'sqlite' ? `sqlite:${join(dir, 'mirror.db')}` : values.db!,
  schema: pgSchema,
  logger,
});
const settings = syncSettings({});
const pageSizeOf = (s: ListStream) => listPaginator(s, settings).pageSize;
const client = () => createClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, limits });

/** (a): the same lists, pages and client as a first sync; rows parsed and dropped. */
async function baseline(): Promise<{ rows: number; requests: number; seconds: number }> {
  const c = client();
  const started = performance.now();
  let rows = 0;
  await Promise.all(
    lists.flatMap((s) =>
      (s.variants ?? [undefined]).map(async (v) => {
        const requests = listRequests(s, settings, v, null);
        const fetchPage = async (page: number) => ({
          count: (await c.get<{ data: unknown[] }>(s.path, requests.query(page))).data.length,
          signatures: [],
        });
        const { paginator } = requests;
        for await (const p of pages({ paginator, fetchPage, startPage: 1, expectedRows: 0, window: pageWindow(s, settings) }))
          rows += p.fetched.count;
      }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  await c.close();
  return { rows, requests: c.stats.requests, seconds };
}

/** Peak RSS seen while the syncs ran (sampled; the process's maxRSS also counts the baseline's own pages). */
let syncPeakRss = 0;

async function sync(mode: 'full' | 'incremental', into = store): Promise<{ result: RunResult; requests: number; seconds: number }> {
  const c = client();
  const sample = () => (syncPeakRss = Math.max(syncPeakRss, process.memoryUsage.rss()));
  const sampler = setInterval(sample, 5);
  const started = performance.now();
  const result = await runSync({ client: c, store: into, logger, settings: syncSettings({}, { full: mode === 'full' }), streams });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  sample();
  process.stderr.write(
    `${mode}: ${seconds.toFixed(2)} s, peak RSS so far ${(syncPeakRss / 2 ** 20).toFixed(0)} MB, heap ${(process.memoryUsage().heapTotal / 2 ** 20).toFixed(0)} MB\n`,
  );
  await c.close();
  if (result.outcome !== 'success')
    throw new Error(`sync ${mode}: ${result.outcome} ${JSON.stringify(result.streams.filter((s) => s.error))}`);
  return { result, requests: c.stats.requests, seconds };
}

const sum = (r: RunResult, k: 'fetched' | 'inserted' | 'updated' | 'deleted') => r.streams.reduce((n, s) => n + s[k], 0);

try {
  await baseline(); // warms the sandbox's page cache, so (a) and (b) both read cached pages
  const a = await baseline();
  const cold = await coldFirstSync();
  const b = await sync('full');
  await sync('incremental'); // the first windowed requests are new to the sandbox's page cache
  const c = await sync('incremental');
  const change = await sandbox.advance({ seconds: 60, updateFraction: 0.01, addFraction: 0, removeFraction: 0 });
  const changed = Object.values(change.resources).reduce((n, r) => n + r.updated.length + r.added.length, 0);
  const d = await sync('incremental');
  const e = await sync('full');
  const perStream = d.result.streams.map(
    (s) =>
      `${s.stream} ${s.inserted + s.updated}/${(change.resources[s.stream]?.updated.length ?? 0) + (change.resources[s.stream]?.added.length ?? 0)}`,
  );
  const minimum = await minimumRequests();
  const rss = process.resourceUsage().maxRSS / 1024;
  const heap = process.memoryUsage();
  process.stderr.write(
    `memory now: rss ${(heap.rss / 2 ** 20).toFixed(0)} MB, heap ${(heap.heapUsed / 2 ** 20).toFixed(0)}/${(heap.heapTotal / 2 ** 20).toFixed(0)} MB, external ${(heap.external / 2 ** 20).toFixed(0)} MB, array buffers ${(heap.arrayBuffers / 2 ** 20).toFixed(0)} MB\n`,
  );
  const remote = latencyMs > 0 ? await withLatency() : null;
  const copies = pgSchema
    ? await copyBaselines(
        values.db!,
        pgSchema,
        lists.map((l) => l.table),
      )
    : null;
  const floor = pgSchema
    ? null
    : sqliteFloor(
        join(dir, 'mirror.db'),
        join(dir, 'floor.db'),
        lists.map((s) => ({ table: s.table, pageSize: pageSizeOf(s) })),
      );
  const rate = (rows: number, s: number) => Math.round(rows / s).toLocaleString('en-US');
  const lines = [
    `### Sync, scale ${scale} (${values.db === 'sqlite' ? 'SQLite' : 'PostgreSQL'})`,
    '',
    '| phase | rows | requests | seconds | rows/s | ratio to (a) | rows written |',
    '|---|---|---|---|---|---|---|',
    `| (a) fetch-only baseline | ${a.rows} | ${a.requests} | ${a.seconds.toFixed(2)} | ${rate(a.rows, a.seconds)} | 1.00 | – |`,
    `| (b) full first sync | ${sum(b.result, 'fetched')} | ${b.requests} | ${b.seconds.toFixed(2)} | ${rate(sum(b.result, 'fetched'), b.seconds)} | ${(a.seconds / b.seconds).toFixed(2)} (speed) | ${sum(b.result, 'inserted')} |`,
    `| (c) incremental, nothing changed | ${sum(c.result, 'fetched')} | ${c.requests} | ${c.seconds.toFixed(2)} | ${rate(sum(c.result, 'fetched'), c.seconds)} | ${(c.seconds / a.seconds).toFixed(2)} (time) | ${sum(c.result, 'inserted') + sum(c.result, 'updated') + sum(c.result, 'deleted')} |`,
    `| (d) incremental after 1% changed | ${sum(d.result, 'fetched')} | ${d.requests} | ${d.seconds.toFixed(2)} | ${rate(sum(d.result, 'fetched'), d.seconds)} | ${(d.seconds / a.seconds).toFixed(2)} (time) | ${sum(d.result, 'inserted') + sum(d.result, 'updated')} (sandbox changed ${changed}) |`,
    `| (e) full pass after (d) | ${sum(e.result, 'fetched')} | ${e.requests} | ${e.seconds.toFixed(2)} | ${rate(sum(e.result, 'fetched'), e.seconds)} | ${(e.seconds / a.seconds).toFixed(2)} (time) | ${sum(e.result, 'inserted') + sum(e.result, 'updated')} |`,
    '',
    `(d) + (e) wrote ${sum(d.result, 'inserted') + sum(d.result, 'updated') + sum(e.result, 'inserted') + sum(e.result, 'updated')} rows and soft-deleted ${sum(d.result, 'deleted') + sum(e.result, 'deleted')} for ${changed} records the sandbox changed; (d) alone misses the changes that a date window cannot see (old SEC filings updated), which the full pass catches. Per stream, written/changed in (d): ${perStream.join(', ')}.`,
    '',
    ...(floor
      ? [
          `SQLite alone, for scale: inserting the same ${floor.rows} rows with prepared INSERTs into unindexed tables of a fresh file (same pragmas, one transaction per page, no fetch, mapping or change check) takes ${floor.seconds.toFixed(2)} s, ${(floor.seconds / a.seconds).toFixed(2)}× (a)'s time. Even with fetching overlapped and free, a sync that writes these rows to SQLite here cannot exceed ${(a.seconds / floor.seconds).toFixed(2)} of (a)'s speed.`,
          '',
        ]
      : []),
    ...(copies
      ? [
          `PostgreSQL COPY of the same ${copies.plain.rows} rows into unindexed tables (median of 3 loads): ${rate(copies.plain.rows, copies.plain.seconds)} rows/s; the first sync's rate is ${(copies.plain.seconds / b.seconds).toFixed(2)} of it. Into unindexed tables with the mirror's lz4 compression as well: ${rate(copies.sameCompression.rows, copies.sameCompression.seconds)} rows/s, ${(copies.sameCompression.seconds / b.seconds).toFixed(2)}.`,
          '',
        ]
      : []),
    ...(remote
      ? [
          `With ${latencyMs} ms added to every request (a real service's round trip rather than loopback's), in the same run: (a) ${remote.a.seconds.toFixed(2)} s, (b) a full first sync into an empty ${values.db === 'sqlite' ? 'file' : 'schema'} ${remote.b.seconds.toFixed(2)} s, ${(remote.a.seconds / remote.b.seconds).toFixed(2)} of (a)'s speed: the writes hide behind the requests in flight.`,
          '',
        ]
      : []),
    `(b) is the process's second first sync, into an empty ${values.db === 'sqlite' ? 'file' : 'schema'}; the first, cold (JIT, connections), took ${cold.toFixed(2)} s.`,
    '',
    `Requests of the full sync: ${b.requests}; the minimum (Σ over lists of ⌊rows/page⌋ + 1): ${minimum}. Peak RSS during the syncs (b)–(e): ${(syncPeakRss / 2 ** 20).toFixed(0)} MB (sampled every 5 ms; the process's maxRSS, baseline included: ${rss.toFixed(0)} MB).`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  process.stderr.write(
    `${JSON.stringify({ scale, rssMb: Math.round(syncPeakRss / 2 ** 20), maxRssMb: Math.round(rss), a: a.seconds, b: b.seconds, c: c.seconds, d: d.seconds })}\n`,
  );
} finally {
  if (pgSchema)
    await store.db.schema
      .dropSchema(pgSchema)
      .ifExists()
      .cascade()
      .execute()
      .catch(() => {});
  await store.close();
  await sandbox.stop();
  rmSync(dir, { recursive: true, force: true });
}

/** Runs `fn` on a store of its own, empty (a file or schema named `name`), dropped afterwards. */
async function withEmptyStore<T>(name: string, fn: (empty: typeof store) => Promise<T>): Promise<T> {
  const schema = pgSchema ? `${pgSchema}_${name}` : undefined;
  const empty = await openStore({
    migrations: MIRROR_SCHEMA,
    url: values.db === 'sqlite' ? `sqlite:${join(dir, `${name}.db`)}` : values.db!,
    schema,
    logger,
  });
  try {
    return await fn(empty);
  } finally {
    if (schema)
      await empty.db.schema
        .dropSchema(schema)
        .ifExists()
        .cascade()
        .execute()
        .catch(() => {});
    await empty.close();
  }
}

/** A first sync into an empty store, then thrown away: warms the JIT and connections before (b). Returns its seconds. */
function coldFirstSync(): Promise<number> {
  return withEmptyStore('cold', async (empty) => (await sync('full', empty)).seconds);
}

/** (a) and (b) again with the sandbox answering after `latencyMs`, (b) into an empty store. */
async function withLatency() {
  await sandbox.setLatency(latencyMs);
  try {
    return await withEmptyStore('latency', async (empty) => ({ a: await baseline(), b: await sync('full', empty) }));
  } finally {
    await sandbox.setLatency(0);
  }
}

async function minimumRequests(): Promise<number> {
  let n = 0;
  for (const s of lists) {
    for (const v of s.variants ?? [{ scope: {} }]) {
      let q = store.db
        .selectFrom(s.table)
        .select((eb) => eb.fn.countAll().as('n'))
        .where('deleted_at', 'is', null);
      for (const [k, val] of Object.entries(v.scope)) q = q.where(k, '=', val);
      const rows = Number(((await q.executeTakeFirst()) as { n: number }).n);
      n += Math.floor(rows / pageSizeOf(s)) + 1;
    }
  }
  return n;
}
