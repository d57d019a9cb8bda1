// Webhook receiver throughput: 64 concurrent senders on loopback against (a) a bare node:http server
// that answers 200 without work and (b) the receiver verifying, validating and group-committing
// every delivery to SQLite (two sync levels) or PostgreSQL (durable), measured in the same run. The
// load runs in a child process so that it does not share the servers' event loop.
//   npx tsx --require ./scripts/ts-threads.cjs bench/receiver.ts [--requests 20000] [--concurrency 64] [--pg postgres://...]
// Without --pg (or DS_BENCH_PG_URL) a throwaway cluster is started, with durability switched on;
// either way the server must have fsync, synchronous_commit and full_page_writes on.
import { execFileSync, fork } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { pino } from 'pino';
import { Pool } from 'undici';
import { startReceiver } from '../src/receiver/index.js';
import { openStore, type Store } from '../src/store/index.js';
import { findPgBin, startPgCluster } from '../test/helpers/pg-cluster.js';
import { MIRROR_SCHEMA } from '../src/mirror-schema/index.js';

const SECRET = 'bench-secret-not-a-real-one';

interface Phase {
  url: string;
  requests: number;
  concurrency: number;
}

interface PhaseResult {
  rps: number;
  /** Server-process CPU microseconds per request (PostgreSQL's own CPU not included). */
  cpuUs?: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

function argValue(name: string, fallback?: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
}

function argInt(name: string, fallback: number): number {
  const value = argValue(name);
  return value === undefined ? fallback : Number(value);
}

function envelopeBody(): string {
  const at = new Date().toISOString();
  return JSON.stringify({
    id: randomUUID(),
    type: 'monitoring_event',
    timestamp: at,
    data: {
      view: { id: randomUUID(), name: 'Bench view' },
      event: { id: randomUUID(), title: 'Validator set change announced for the main network' },
      assets: [{ id: randomUUID(), name: 'Asset', logo_url: 'https://example.test/logo.png' }],
      latest_development: {
        id: randomUUID(),
        title: 'Governance proposal passed',
        summary: 'The proposal **passed** with a large majority; the change activates at the next epoch. '.repeat(4),
        category: ['protocol_management'],
        subcategory: ['governance_update'],
        importance: 'medium',
        actionable: false,
        created_at: at,
        started_at: at,
      },
    },
  });
}

/** Child process: sends `requests` signed deliveries over `concurrency` connections. */
async function runLoad(phase: Phase): Promise<PhaseResult> {
  const t = Math.floor(Date.now() / 1000);
  const bodies = Array.from({ length: phase.requests }, envelopeBody);
  const sigs = bodies.map((b) => `t=${t},v1=${createHmac('sha256', SECRET).update(`${t}.`).update(b).digest('hex')}`);
  const url = new URL(phase.url);
  const pool = new Pool(url.origin, { connections: phase.concurrency, pipelining: 1 });
  const latencies = new Float64Array(phase.requests);
  let next = 0;
  let non2xx = 0;
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: phase.concurrency }, async () => {
      for (let i = next++; i < phase.requests; i = next++) {
        const t0 = performance.now();
        try {
          const res = await pool.request({
            method: 'POST',
            path: url.pathname,
            body: bodies[i],
            headers: { 'content-type': 'application/json', 'x-webhook-signature': sigs[i] },
          });
          await res.body.dump();
          if (res.statusCode < 200 || res.statusCode >= 300) non2xx++;
        } catch {
          errors++;
        }
        latencies[i] = performance.now() - t0;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  latencies.sort();
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return { rps: phase.requests / elapsed, p50: at(0.5), p99: at(0.99), non2xx, errors };
}

/**
 * The server the PostgreSQL phase writes to, checked to commit durably. The throwaway test cluster
 * starts with fsync, synchronous_commit and full_page_writes off on its command line, which ALTER
 * SYSTEM cannot override: it is restarted without them, so the server's defaults (all on) apply.
 */
async function durablePostgres(): Promise<{ url: string; stop(): Promise<void> }> {
  const given = argValue('pg', process.env.DS_BENCH_PG_URL);
  const cluster = given ? undefined : await startPgCluster();
  const url = given ?? cluster!.url;
  if (cluster) await restartWithDefaults(url);
  const settings = await pgSettings(
    url,
    "select name, setting from pg_settings where name in ('fsync', 'synchronous_commit', 'full_page_writes')",
  );
  const off = settings.filter((s) => s.setting !== 'on').map((s) => `${s.name}=${s.setting}`);
  if (off.length > 0) throw new Error(`the PostgreSQL server does not commit durably (${off.join(', ')}): turn these on to benchmark it`);
  return { url, stop: async () => cluster?.stop() };
}

async function pgSettings(url: string, query: string): Promise<Record<string, string>[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(query)).rows;
  } finally {
    await client.end();
  }
}

async function restartWithDefaults(url: string): Promise<void> {
  const [s] = await pgSettings(
    url,
    "select current_setting('data_directory') as data, current_setting('port') as port, current_setting('unix_socket_directories') as sockets",
  );
  const asRoot = process.getuid?.() === 0;
  const options = `-h 127.0.0.1 -p ${s.port} -k ${s.sockets} -c max_connections=300`;
  const argv = [
    ...(asRoot ? ['runuser', '-u', 'postgres', '--'] : []),
    join(findPgBin()!, 'pg_ctl'),
    '-D',
    s.data,
    '-w',
    '-m',
    'fast',
    '-o',
    options,
    'restart',
  ];
  execFileSync(argv[0], argv.slice(1), { stdio: 'ignore' });
}

async function main(): Promise<void> {
  const requests = argInt('requests', 20_000);
  const concurrency = argInt('concurrency', 64);
  const loadBefore = loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  const dir = mkdtempSync(join(tmpdir(), 'ds-bench-receiver-'));
  const postgres = await durablePostgres();

  const bare = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-length': '0' }).end());
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/webhooks`;

  const child = fork(fileURLToPath(import.meta.url), ['--load'], { execArgv: ['--import', 'tsx'] });
  // CPU of this process (the servers') per request: steadier than rates on a shared machine.
  const load = (url: string, n = requests) =>
    new Promise<PhaseResult>((resolve) => {
      const cpu = process.cpuUsage();
      child.once('message', (m) => {
        const used = process.cpuUsage(cpu);
        resolve({ ...(m as PhaseResult), cpuUs: (used.user + used.system) / n });
      });
      child.send({ url, requests: n, concurrency } satisfies Phase);
    });

  const rows: [string, PhaseResult & { perCommit?: number }][] = [];
  /** One receiver on a fresh store: warm-up, measured run, then a check that every delivery is stored. */
  async function receiverPhase(name: string, store: Store, setup?: () => Promise<unknown>): Promise<void> {
    await setup?.();
    // Access logs are written (to /dev/null): their cost is part of the receiver's.
    const receiver = await startReceiver({ store, port: 0, secrets: [SECRET], logger: pino(pino.destination('/dev/null')) });
    await load(receiver.url, 2000);
    const before = receiver.stats();
    const result = await load(receiver.url);
    const after = receiver.stats();
    await receiver.close();
    const stored = await store.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    await store.close();
    if (Number(stored.n) !== requests + 2000) throw new Error(`${name}: ${String(stored.n)} rows stored, expected ${requests + 2000}`);
    rows.push([name, { ...result, perCommit: (after.received - before.received) / (after.commits - before.commits) }]);
  }

  await load(bareUrl, 2000); // warm-up: JIT, connections
  rows.push(['bare node:http (200, no work)', await load(bareUrl)]);
  const sqlite = (file: string) => openStore({ migrations: MIRROR_SCHEMA, url: `sqlite:${join(dir, file)}` });
  // Group commits are durable (synchronous=FULL at each commit, an fsync) since the receiver acknowledges them.
  await receiverPhase('receiver, SQLite WAL, durable group commits (fsync per commit)', await sqlite('durable.db'));
  await receiverPhase(
    'receiver, PostgreSQL, fsync + synchronous_commit on',
    await openStore({ migrations: MIRROR_SCHEMA, url: postgres.url, schema: `bench_${process.pid}` }),
  );
  rows.push(['bare node:http (200, no work), again', await load(bareUrl)]);
  child.kill();
  await new Promise((resolve) => bare.close(resolve));
  await postgres.stop();
  rmSync(dir, { recursive: true, force: true });

  const bareRps = (rows[0][1].rps + rows[rows.length - 1][1].rps) / 2;
  console.log(
    `\nload average before: ${loadBefore}, after: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (other processes share the CPUs)`,
  );
  console.log(`${requests} signed ~1 KB deliveries per phase, ${concurrency} concurrent senders, loopback, Node ${process.version}\n`);
  console.log(
    '| target | deliveries/s | vs bare (mean) | p50 ms | p99 ms | server CPU µs/req | deliveries per commit | non-2xx | errors |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const [name, r] of rows) {
    const perCommit = r.perCommit === undefined ? '-' : r.perCommit.toFixed(1);
    const cells = [
      name,
      r.rps.toFixed(0),
      (r.rps / bareRps).toFixed(2),
      r.p50.toFixed(1),
      r.p99.toFixed(1),
      r.cpuUs?.toFixed(0),
      perCommit,
      r.non2xx,
      r.errors,
    ];
    console.log(`| ${cells.join(' | ')} |`);
  }
}

if (process.argv.includes('--load')) {
  process.on('message', (phase: Phase) => void runLoad(phase).then((r) => process.send!(r)));
} else {
  await main();
}
