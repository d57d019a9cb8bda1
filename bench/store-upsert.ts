// Store upsert throughput: upsertChanged of asset-like rows (27 columns) in pages of 100 and 1000,
// first insert and an unchanged re-run, on SQLite and PostgreSQL, against a baseline measured in the
// same run (SQLite: a raw prepared INSERT into an unindexed table; PostgreSQL: COPY into an
// unindexed table). On PostgreSQL the candidate upsert forms are measured side by side, which is
// how the adapter's form was picked: the page as one jsonb array of rows beats one unnest array per
// column (no array-literal escaping at either end), which matched multi-row VALUES (capped at 65,535
// parameters); COPY to staging + merge wins only from about 1000-row pages and loses at 100, the page
// size of the big streams (assets, market stats, events). Prints a markdown table.
//   npx tsx bench/store-upsert.ts [--rows 100000] [--pg postgres://...] [--pg-only]   (else a throwaway cluster)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import Database from 'better-sqlite3';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { openStore } from '../src/store/index.js';
import type { Row, Store } from '../src/store/index.js';
import { startPgCluster } from '../test/helpers/pg-cluster.js';
import { MIRROR_SCHEMA } from '../src/mirror-schema/index.js';

const ROWS = argValue('rows', 100_000);
const PAGE_SIZES = [100, 1000];
const SCHEMA = 'bench_store';

function argValue(name: string, fallback: number): number;
function argValue(name: string, fallback: string | undefined): string | undefined;
function argValue(name: string, fallback: number | string | undefined) {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  return typeof fallback === 'number' ? Number(process.argv[i + 1]) : process.argv[i + 1];
}

// name → [sqlite type, postgres type]
const COLUMNS: Record<string, [string, string]> = {
  id: ['integer', 'bigint'],
  code: ['text', 'text'],
  title: ['text', 'text'],
  slug: ['text', 'text'],
  tag_line: ['text', 'text'],
  description: ['text', 'text'],
  image_url: ['text', 'text'],
  category: ['text', 'text'],
  is_preview: ['integer', 'boolean'],
  updated_at: ['integer', 'bigint'],
  type: ['text', 'text'],
  asset_class: ['text', 'text'],
  sector: ['text', 'text'],
  sparkline: ['text', 'text'],
  market_cap_rank: ['integer', 'bigint'],
  market_cap_usd: ['real', 'double precision'],
  market_cap_dominance: ['real', 'double precision'],
  pct_usd_1h: ['real', 'double precision'],
  pct_usd_24h: ['real', 'double precision'],
  pct_usd_7d: ['real', 'double precision'],
  price_usd: ['real', 'double precision'],
  price_btc: ['real', 'double precision'],
  price_eth: ['real', 'double precision'],
  project_id: ['integer', 'bigint'],
  project_slug: ['text', 'text'],
  raw: ['text', 'jsonb'],
  row_hash: ['text', 'text'],
};
const NAMES = Object.keys(COLUMNS);

function assetRows(n: number): Row[] {
  return Array.from({ length: n }, (_, i) => {
    const row: Row = {
      id: i + 1,
      code: `A${i}`,
      title: `Asset number ${i}`,
      slug: `asset-${i}`,
      tag_line: 'A token for the benchmark',
      description: 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(3),
      image_url: `https://img.test/${i}.png`,
      category: 'Payments',
      is_preview: i % 10 === 0,
      updated_at: 1_700_000_000 + i,
      type: 'Application',
      asset_class: 'token',
      sector: 'Finance',
      sparkline: '1,2,3,4,5,6,7',
      market_cap_rank: i + 1,
      market_cap_usd: 1e9 / (i + 1),
      market_cap_dominance: 0.01,
      pct_usd_1h: 0.1,
      pct_usd_24h: -1.5,
      pct_usd_7d: 3.2,
      price_usd: 1.23 + i,
      price_btc: 0.00002,
      price_eth: 0.0004,
      project_id: i + 10,
      project_slug: `project-${i}`,
    };
    row.raw = { ...row, extra: { links: ['https://a.test', 'https://b.test'] } };
    row.row_hash = `hash-${i}`;
    return row;
  });
}

function pages(rows: Row[], size: number): Row[][] {
  const out: Row[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

interface Result {
  store: string;
  method: string;
  page: number;
  pass: string;
  rowsPerSec: number;
  written: number;
}
const results: Result[] = [];

async function timed(store: string, method: string, page: number, pass: string, run: () => Promise<number>) {
  const start = performance.now();
  const written = await run();
  const seconds = (performance.now() - start) / 1000;
  results.push({ store, method, page, pass, rowsPerSec: Math.round(ROWS / seconds), written });
}

const tableDdl = (table: string, dialect: 0 | 1, keyed: boolean) =>
  `create table ${table} (${NAMES.map((n) => `"${n}" ${COLUMNS[n][dialect]}`).join(', ')}` +
  (keyed
    ? `, first_seen_at ${dialect ? 'timestamptz' : 'text'} not null, synced_at ${dialect ? 'timestamptz' : 'text'} not null, deleted_at ${dialect ? 'timestamptz' : 'text'}, primary key (id)`
    : '') +
  ')';

async function upsertPasses(store: Store, label: string, method: string, rows: Row[], size: number, reset: () => Promise<void>) {
  await reset();
  const run = (now: string) => async () => {
    let written = 0;
    for (const page of pages(rows, size)) {
      const c = await store.transaction((tx) => tx.upsertChanged('bench_assets', ['id'], page, now));
      written += c.inserted + c.updated;
    }
    return written;
  };
  await timed(label, method, size, 'first insert', run(new Date().toISOString()));
  await timed(label, method, size, 'unchanged re-run', run(new Date(Date.now() + 1000).toISOString()));
}

async function benchSqlite(rows: Row[]) {
  const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-bench-'));
  try {
    const store = await openStore({ migrations: MIRROR_SCHEMA, url: join(dir, 'bench.db') });
    const raw = new Database(join(dir, 'bench.db'));
    raw.pragma('synchronous = NORMAL');
    for (const size of PAGE_SIZES) {
      raw.exec('drop table if exists bench_plain');
      raw.exec(tableDdl('bench_plain', 0, false));
      const insert = raw.prepare(`insert into bench_plain values (${NAMES.map(() => '?').join(', ')})`);
      const insertPage = raw.transaction((page: Row[]) => {
        for (const r of page)
          insert.run(NAMES.map((n) => (typeof r[n] === 'boolean' ? Number(r[n]) : typeof r[n] === 'object' ? JSON.stringify(r[n]) : r[n])));
      });
      await timed('SQLite', 'baseline: prepared INSERT, unindexed', size, 'insert', async () => {
        for (const page of pages(rows, size)) insertPage(page);
        return rows.length;
      });
      await upsertPasses(store, 'SQLite', 'upsertChanged', rows, size, async () => {
        raw.exec('drop table if exists bench_assets');
        raw.exec(tableDdl('bench_assets', 0, true));
      });
    }
    raw.close();
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const csvValue = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return v ? 't' : 'f';
  const text = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return `"${text.replaceAll('"', '""')}"`;
};

async function copyPage(client: pg.PoolClient, table: string, page: Row[]) {
  const lines = page.map((r) => `${NAMES.map((n) => csvValue(r[n])).join(',')}\n`);
  await pipeline(
    Readable.from(lines),
    client.query(copyFrom(`copy ${table} (${NAMES.map((n) => `"${n}"`).join(', ')}) from stdin with (format csv)`)),
  );
}

const mergeTail = (source: string) =>
  `on conflict (id) do update set ${NAMES.filter((n) => n !== 'id')
    .map((n) => `"${n}" = excluded."${n}"`)
    .join(', ')}, ` +
  `synced_at = excluded.synced_at, deleted_at = null where t.row_hash is distinct from excluded.row_hash or t.deleted_at is not null ${source}`;

/** Alternative upsert forms, measured to choose the adapter's: one unnest array per column, multi-row VALUES, and COPY into a staging table then merge. */
async function pgVariant(pool: pg.Pool, form: 'unnest' | 'values' | 'copy-merge', rows: Row[], size: number, now: string): Promise<number> {
  const client = await pool.connect();
  let written = 0;
  try {
    if (form === 'copy-merge') {
      await client.query('drop table if exists stage');
      await client.query(`create temp table stage as select ${NAMES.map((n) => `"${n}"`).join(', ')} from bench_assets with no data`);
    }
    for (const page of pages(rows, size)) {
      await client.query('begin');
      let result;
      if (form === 'unnest') {
        const arrays = NAMES.map((n) => page.map((r) => (typeof r[n] === 'object' && r[n] !== null ? JSON.stringify(r[n]) : r[n])));
        const unnest = NAMES.map((n, i) => `$${i + 2}::${COLUMNS[n][1]}[]`).join(', ');
        result = await client.query(
          `insert into bench_assets as t (${NAMES.map((n) => `"${n}"`).join(', ')}, first_seen_at, synced_at, deleted_at) select u.*, $1::timestamptz, $1::timestamptz, null from unnest(${unnest}) as u ${mergeTail('returning (xmax = 0)')}`,
          [now, ...arrays],
        );
      } else if (form === 'values') {
        const params: unknown[] = [now];
        const tuples = page.map(
          (r) =>
            `(${NAMES.map((n) => {
              params.push(typeof r[n] === 'object' && r[n] !== null ? JSON.stringify(r[n]) : r[n]);
              return `$${params.length}`;
            }).join(', ')}, $1, $1, null)`,
        );
        result = await client.query(
          `insert into bench_assets as t (${NAMES.map((n) => `"${n}"`).join(', ')}, first_seen_at, synced_at, deleted_at) values ${tuples.join(', ')} ${mergeTail('returning (xmax = 0)')}`,
          params,
        );
      } else {
        await client.query('truncate stage');
        await copyPage(client, 'stage', page);
        result = await client.query(
          `insert into bench_assets as t select ${NAMES.map((n) => `"${n}"`).join(', ')}, $1::timestamptz, $1::timestamptz, null from stage ${mergeTail('returning (xmax = 0)')}`,
          [now],
        );
      }
      await client.query('commit');
      written += result.rowCount ?? 0;
    }
  } catch (err) {
    await client.query('rollback');
    throw err;
  } finally {
    client.release();
  }
  return written;
}

async function benchPostgres(url: string, rows: Row[]) {
  const store = await openStore({ migrations: MIRROR_SCHEMA, url, schema: SCHEMA });
  const pool = new pg.Pool({ connectionString: url, options: `-c search_path=${SCHEMA}` });
  const reset = async () => {
    await pool.query('drop table if exists bench_assets');
    await pool.query(tableDdl('bench_assets', 1, true));
  };
  try {
    for (const size of PAGE_SIZES) {
      await pool.query('drop table if exists bench_plain');
      await pool.query(tableDdl('bench_plain', 1, false));
      const client = await pool.connect();
      await timed('PostgreSQL', 'baseline: COPY, unindexed', size, 'insert', async () => {
        for (const page of pages(rows, size)) {
          await client.query('begin');
          await copyPage(client, 'bench_plain', page);
          await client.query('commit');
        }
        return rows.length;
      });
      client.release();
      await upsertPasses(store, 'PostgreSQL', 'upsertChanged (jsonb rows)', rows, size, reset);
      for (const form of ['unnest', 'values', 'copy-merge'] as const) {
        await reset();
        const method = {
          unnest: 'candidate: unnest arrays',
          values: 'candidate: multi-row VALUES',
          'copy-merge': 'candidate: COPY to staging + merge',
        }[form];
        await timed('PostgreSQL', method, size, 'first insert', () => pgVariant(pool, form, rows, size, new Date().toISOString()));
        await timed('PostgreSQL', method, size, 'unchanged re-run', () => pgVariant(pool, form, rows, size, new Date().toISOString()));
      }
    }
  } finally {
    await pool.query(`drop schema if exists ${SCHEMA} cascade`);
    await pool.end();
    await store.close();
  }
}

const rows = assetRows(ROWS);
if (!process.argv.includes('--pg-only')) await benchSqlite(rows);
const given = argValue('pg', process.env.DS_BENCH_PG_URL);
const cluster = given ? null : await startPgCluster().catch((err: Error) => (console.error(`PostgreSQL skipped: ${err.message}`), null));
const pgUrl = given ?? cluster?.url;
if (pgUrl) await benchPostgres(pgUrl, rows).finally(() => cluster?.stop());

console.log(`\n${ROWS.toLocaleString('en')} asset-like rows, ${NAMES.length} columns, one transaction per page\n`);
console.log('| store | method | page | pass | rows/s | rows written |');
console.log('|---|---|---:|---|---:|---:|');
for (const r of results) {
  console.log(
    `| ${r.store} | ${r.method} | ${r.page} | ${r.pass} | ${r.rowsPerSec.toLocaleString('en')} | ${r.written.toLocaleString('en')} |`,
  );
}
