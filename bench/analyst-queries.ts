// Whether the analyst's layer is fast enough for a dashboard in every reader an analyst may open the mirror
// with, side by side in one run: every analyst view's first 100 rows and its count, and every worked example
// (docs/examples/), through the SQLite ds-mirror bundles (better-sqlite3), the operating system's SQLite
// (Python's sqlite3 module: 3.40 on Debian 12, the slowest a user may have) and PostgreSQL. The mirror is
// kept as the daemon keeps one (bench/analyst-mirror.ts), the same rows in both stores. Each query runs
// once to warm the caches, then --runs times; the median is printed (bench/analyst-readers.ts says how
// each reader times), and the slowest reader is held to the budget: 200 ms for a view's page or count,
// 1 s for an example.
//   npx tsx bench/analyst-queries.ts [--scale 10] [--runs 3] [--db postgres://... | --no-postgres]
//   npx tsx bench/analyst-queries.ts --file before.db --file after.db --read-db postgres://.../before
//     (existing mirrors instead, read only: SQLite files and PostgreSQL databases)
//   npx tsx bench/analyst-queries.ts --keep DIR [--db postgres://.../empty]
//     (the built mirror kept for later runs: DIR/mirror.db, and the database's public schema)
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { workedExamples } from '../src/dictionary/worked-examples.js';
import { openStore, type Dialect, type Store } from '../src/store/index.js';
import { ANALYST_VIEWS } from '../schema/views/index.js';
import { startSandbox } from '../sandbox/index.js';
import { MIRROR_SCHEMA } from '../src/mirror-schema/index.js';
import { startPgCluster, type PgCluster } from '../test/helpers/pg-cluster.js';
import { buildMirrors } from './analyst-mirror.js';
import { bundledReader, postgresCpuReader, postgresReader, psqlReader, pythonReader, type Reader, type Timing } from './analyst-readers.js';

const { values: args } = parseArgs({
  options: {
    scale: { type: 'string', default: '10' },
    runs: { type: 'string', default: '3' },
    db: { type: 'string' },
    'no-postgres': { type: 'boolean', default: false },
    file: { type: 'string', multiple: true },
    'read-db': { type: 'string', multiple: true },
    keep: { type: 'string' },
  },
});
const RUNS = Number(args.runs);
const VIEW_BUDGET_MS = 200;
const EXAMPLE_BUDGET_MS = 1000;

interface Query {
  label: string;
  budget: number;
  sql: Record<Dialect, string>;
}

function queries(): Query[] {
  const both = (q: string) => ({ sqlite: q, postgres: q });
  return [
    ...ANALYST_VIEWS.flatMap((v) => [
      { label: `\`${v.name}\` first 100 rows`, budget: VIEW_BUDGET_MS, sql: both(`select * from ${v.name} limit 100`) },
      { label: `\`${v.name}\` count`, budget: VIEW_BUDGET_MS, sql: both(`select count(*) from ${v.name}`) },
    ]),
    ...workedExamples().map((e) => ({ label: `example ${e.name}`, budget: EXAMPLE_BUDGET_MS, sql: e.sql })),
  ];
}

interface Column {
  heading: string;
  timings: Timing[];
}

async function measure(reader: Reader, dialect: Dialect, list: readonly Query[], label = ''): Promise<Column> {
  process.stderr.write(`analyst-queries: ${label}${reader.name}...\n`);
  return {
    heading: `${label}${reader.name} ms`,
    timings: await reader.time(
      list.map((q) => q.sql[dialect]),
      RUNS,
    ),
  };
}

/** Wall time as a client waits, and the server's CPU time where the server runs on this machine. */
async function measurePostgres(store: Store, list: readonly Query[], label = '', url?: string): Promise<Column[]> {
  const columns = [await measure(await postgresReader(store), 'postgres', list, label)];
  // psql as the analyst runs it: only for a database given by URL (a bench's own schema is not psql's default).
  if (url) columns.push(await measure(psqlReader(url), 'postgres', list, label));
  const local = ['localhost', '127.0.0.1', '::1'].includes(
    String((await sql<{ a: string | null }>`select inet_server_addr()::text as a`.execute(store.db)).rows[0]!.a).replace(/\/.*/, ''),
  );
  if (local) columns.push(await measure(await postgresCpuReader(store), 'postgres', list, label));
  return columns;
}

const ms = (n: number) => (n < 10 ? n.toFixed(1) : n.toFixed(0));

/** A markdown table: a row per query, a column per reader, the rows each gave (when they differ) and the slowest against the budget. */
function table(list: readonly Query[], columns: readonly Column[]): string[] {
  const lines = [
    `| query | rows | ${columns.map((c) => c.heading).join(' | ')} | slowest |`,
    `|---|---:|${columns.map(() => '---:|').join('')}---|`,
  ];
  list.forEach((q, i) => {
    const rows = [...new Set(columns.map((c) => c.timings[i]!.rows))].join(' ≠ ');
    const slowest = Math.max(...columns.map((c) => c.timings[i]!.ms));
    const verdict = slowest <= q.budget ? 'ok' : `**over ${q.budget} ms**`;
    lines.push(`| ${q.label} | ${rows} | ${columns.map((c) => ms(c.timings[i]!.ms)).join(' | ')} | ${verdict} |`);
  });
  return lines;
}

/** Builds a mirror in a new SQLite file and, unless --no-postgres, in PostgreSQL, and reads both. */
async function buildAndMeasure(list: readonly Query[]): Promise<Column[]> {
  const sb = await startSandbox({ scale: Number(args.scale), seed: 42 });
  const dir = args.keep ?? mkdtempSync(join(tmpdir(), 'ds-bench-analyst-'));
  const file = join(dir, 'mirror.db');
  let cluster: PgCluster | undefined;
  const stores: Store[] = [];
  // A kept mirror fills the database's public schema (an empty database), to be read by --read-db.
  const schema = args.keep && args.db ? 'public' : `bench_${randomBytes(4).toString('hex')}`;
  try {
    stores.push(await openStore({ migrations: MIRROR_SCHEMA, url: `sqlite:${file}` }));
    if (!args['no-postgres']) {
      if (!args.db) cluster = await startPgCluster();
      stores.push(await openStore({ migrations: MIRROR_SCHEMA, url: args.db ?? cluster!.url, schema }));
    }
    await buildMirrors(stores, sb);
    await stores[0]!.close(); // the last connection checkpoints the WAL into the file
    const columns = [await measure(bundledReader(file), 'sqlite', list), await measure(pythonReader(file), 'sqlite', list)];
    if (stores[1]) columns.push(...(await measurePostgres(stores[1], list)));
    return columns;
  } finally {
    if (stores[1]) {
      if (schema !== 'public') await sql.raw(`drop schema ${schema} cascade`).execute(stores[1].db);
      await stores[1].close();
    }
    await sb.close();
    await cluster?.stop();
    if (!args.keep) rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const list = queries();
  const files = args.file ?? [];
  const databases = args['read-db'] ?? [];
  const columns: Column[] = [];
  if (files.length + databases.length === 0) columns.push(...(await buildAndMeasure(list)));
  for (const file of files) {
    const label = files.length > 1 ? `${basename(file)}: ` : '';
    columns.push(await measure(bundledReader(file), 'sqlite', list, label), await measure(pythonReader(file), 'sqlite', list, label));
  }
  for (const url of databases) {
    const store = await openStore({ migrations: MIRROR_SCHEMA, url, migrate: false });
    try {
      const label = databases.length > 1 ? `${new URL(url).pathname.slice(1)}: ` : '';
      columns.push(...(await measurePostgres(store, list, label, url)));
    } finally {
      await store.close();
    }
  }
  const lines = table(list, columns);
  const over = lines.filter((l) => l.includes('**over')).length;
  const source =
    files.length + databases.length
      ? [...files.map((f) => basename(f)), ...databases.map((u) => new URL(u).pathname)].join(', ')
      : `scale ${args.scale}`;
  console.log(`${source}, median of ${RUNS} warm runs; ${over} over budget in the slowest reader.\n`);
  console.log(lines.join('\n'));
}

await main();
