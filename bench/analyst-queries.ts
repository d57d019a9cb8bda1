// Whether the analyst's layer is fast enough for a dashboard, which runs its queries on every refresh:
// every analyst view's first 100 rows and its count, and every worked example (docs/examples/), on a
// mirror kept as the daemon keeps one (every stream with the monitoring views configured, the sandbox's
// clock advanced a day and everything synced again, the jobs recorded, then a quiet monitoring run).
// Each query runs once to warm the caches, then --runs times; the median is printed, against the budget:
// 200 ms for a view's page or count, 1 s for an example.
//   npx tsx bench/analyst-queries.ts [--scale 10] [--runs 3] [--db postgres://...]
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { pino } from 'pino';
import { resolveStreams } from '../src/catalog/index.js';
import { createClient } from '../src/client/index.js';
import { workedExamples } from '../src/dictionary/worked-examples.js';
import { configureJobs } from '../src/scheduler/configure-jobs.js';
import { defaultJobs } from '../src/scheduler/job-files.js';
import { recordJobs } from '../src/scheduler/record-jobs.js';
import { openStore, type Store } from '../src/store/index.js';
import { runSync } from '../src/sync/engine.js';
import { syncSettings } from '../src/sync/settings.js';
import { ANALYST_VIEWS } from '../schema/views/index.js';
import { startSandbox, type Sandbox } from '../sandbox/index.js';
import { MIRROR_SCHEMA } from '../src/mirror-schema/index.js';

const { values: args } = parseArgs({
  options: { scale: { type: 'string', default: '10' }, runs: { type: 'string', default: '3' }, db: { type: 'string' } },
});
const RUNS = Number(args.runs);
const VIEW_BUDGET_MS = 200;
const EXAMPLE_BUDGET_MS = 1000;

async function sync(store: Store, sb: Sandbox, streams: string[], job?: string): Promise<void> {
  const fast = { requestsPerMinute: 100_000_000, concurrency: 16 };
  const client = createClient({
    baseUrl: sb.url,
    apiKey: sb.apiKey,
    limits: { v1: fast, charts: fast, open: fast, tokenUnlocks: fast, monitoring: fast },
  });
  try {
    const settings = syncSettings({});
    settings.monitoring.views = sb.monitoring.views().map((v) => v.id);
    const run = await runSync({ client, store, logger: pino({ level: 'silent' }), settings, streams: resolveStreams(streams), job });
    if (run.outcome !== 'success') throw new Error(`sync: ${run.outcome}`);
  } finally {
    await client.close();
  }
}

/** Median milliseconds of `RUNS` runs after one warm-up, and the rows of the last. */
async function time(store: Store, query: string): Promise<{ ms: number; rows: number }> {
  let rows = 0;
  const times: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const started = process.hrtime.bigint();
    rows = (await sql.raw(query).execute(store.db)).rows.length;
    if (i > 0) times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)]!, rows };
}

const ms = (n: number) => (n < 10 ? n.toFixed(1) : n.toFixed(0));
const verdict = (n: number, budget: number) => (n <= budget ? 'ok' : `**over ${budget} ms**`);

async function measure(store: Store): Promise<string[]> {
  const lines = ['| query | rows | ms (median) | budget |', '|---|---:|---:|---|'];
  for (const view of ANALYST_VIEWS) {
    const page = await time(store, `select * from ${view.name} limit 100`);
    const count = await time(store, `select count(*) as n from ${view.name}`);
    const { rows } = await sql.raw<{ n: unknown }>(`select count(*) as n from ${view.name}`).execute(store.db);
    const n = Number(rows[0]?.n ?? 0);
    lines.push(`| \`${view.name}\` first 100 rows | ${page.rows} | ${ms(page.ms)} | ${verdict(page.ms, VIEW_BUDGET_MS)} |`);
    lines.push(`| \`${view.name}\` count | ${n} | ${ms(count.ms)} | ${verdict(count.ms, VIEW_BUDGET_MS)} |`);
  }
  for (const example of workedExamples()) {
    const t = await time(store, example.sql[store.dialect]);
    lines.push(`| example ${example.name} | ${t.rows} | ${ms(t.ms)} | ${verdict(t.ms, EXAMPLE_BUDGET_MS)} |`);
  }
  return lines;
}

async function main(): Promise<void> {
  const scale = Number(args.scale);
  const sb = await startSandbox({ scale, seed: 42 });
  const dir = mkdtempSync(join(tmpdir(), 'ds-bench-analyst-'));
  const schema = args.db ? `bench_${randomBytes(4).toString('hex')}` : undefined;
  const store = await openStore({ migrations: MIRROR_SCHEMA, url: args.db ?? `sqlite:${join(dir, 'mirror.db')}`, schema });
  try {
    await recordJobs(store, configureJobs(defaultJobs, {}, 'UTC'), new Date());
    await sync(store, sb, ['all']);
    await sb.advance({ seconds: 86_400, updateFraction: 0.02, addFraction: 0.01, removeFraction: 0.005 });
    await sync(store, sb, ['all']);
    await sync(store, sb, ['monitoring-events'], 'monitoring-events');
    const lines = await measure(store);
    const over = lines.filter((l) => l.includes('**over')).length;
    console.log(
      `${store.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, scale ${scale}, median of ${RUNS} warm runs; ${over} over budget.\n`,
    );
    console.log(lines.join('\n'));
  } finally {
    if (schema) await sql.raw(`drop schema ${schema} cascade`).execute(store.db);
    await store.close();
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
