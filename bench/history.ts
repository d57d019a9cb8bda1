// What history and the analyst views cost: a first sync and a 1%-changed incremental of every default
// stream (`/v1` lists and monitoring, sandbox in its own process), into a fresh store WITH the history
// triggers and views (as migrated) and into one WITHOUT them (triggers and views dropped after
// migrating: the baseline). Reported: seconds and store bytes of each run, as the median of --repeat
// interleaved pairs, each pair against sandboxes started with the same seed (the same data and the
// same changes). Also the time to read every row of v_assets against reading the assets table.
//   npx tsx bench/history.ts [--scale 1] [--repeat 3] [--db postgres://...]
import { mkdtempSync, rmSync, statSync, existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { pino } from 'pino';
import { resolveStreams } from '../src/catalog/index.js';
import { createClient } from '../src/client/index.js';
import { openStore, type Store } from '../src/store/index.js';
import { runSync } from '../src/sync/engine.js';
import { syncSettings } from '../src/sync/settings.js';
import { ANALYST_VIEWS } from '../schema/views/index.js';
import { mirroredTables } from '../schema/history/triggers.js';
import { startSandboxProcess, type SandboxProcess } from './sandbox-process.js';
import { MIRROR_SCHEMA } from '../src/mirror-schema/index.js';

const { values: args } = parseArgs({
  options: { scale: { type: 'string', default: '1' }, repeat: { type: 'string', default: '3' }, db: { type: 'string' } },
});
const SCALE = Number(args.scale);
const REPEAT = Number(args.repeat);

interface Opened {
  store: Store;
  bytes(): Promise<number>;
  cleanup(): Promise<void>;
}

async function open(): Promise<Opened> {
  if (args.db) {
    const schema = `bench_${randomBytes(4).toString('hex')}`;
    const store = await openStore({ migrations: MIRROR_SCHEMA, url: args.db, schema });
    return {
      store,
      bytes: async () =>
        Number(
          (
            await sql<{ n: string }>`select coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint as n from pg_class c
          join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and c.relkind = 'r'`.execute(store.db)
          ).rows[0].n,
        ),
      async cleanup() {
        await sql.raw(`drop schema ${schema} cascade`).execute(store.db);
        await store.close();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'ds-bench-history-'));
  const file = join(dir, 'mirror.db');
  const store = await openStore({ migrations: MIRROR_SCHEMA, url: `sqlite:${file}` });
  return {
    store,
    async bytes() {
      await sql`pragma wal_checkpoint(TRUNCATE)`.execute(store.db);
      return statSync(file).size + (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);
    },
    async cleanup() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The baseline: the same schema without the history triggers and the views. */
async function dropHistoryAndViews(store: Store): Promise<void> {
  for (const view of [...ANALYST_VIEWS].reverse()) await sql.raw(`drop view if exists ${view.name}`).execute(store.db);
  for (const table of await mirroredTables(store.db, store.dialect)) {
    await sql
      .raw(
        store.dialect === 'sqlite' ? `drop trigger ${table.name}_keep_history` : `drop trigger ${table.name}_keep_history on ${table.name}`,
      )
      .execute(store.db);
  }
}

async function syncSeconds(store: Store, sandbox: SandboxProcess): Promise<number> {
  const fast = { requestsPerMinute: 100_000_000, concurrency: 16 };
  const client = createClient({
    baseUrl: sandbox.url,
    apiKey: sandbox.apiKey,
    limits: { v1: fast, charts: fast, open: fast, tokenUnlocks: fast, monitoring: fast },
  });
  const started = performance.now();
  try {
    const result = await runSync({
      client,
      store,
      logger: pino({ level: 'silent' }),
      settings: syncSettings({}),
      streams: resolveStreams(['all']),
    });
    if (result.outcome !== 'success') throw new Error(JSON.stringify(result.streams.filter((s) => s.outcome !== 'success')));
    return (performance.now() - started) / 1000;
  } finally {
    await client.close();
  }
}

interface Sample {
  first: number;
  firstBytes: number;
  incr: number;
  incrBytes: number;
  historyRows: number;
  viewMs: number;
  tableMs: number;
}

async function once(withHistory: boolean): Promise<Sample> {
  const sandbox = await startSandboxProcess(SCALE, 42);
  const o = await open();
  try {
    if (!withHistory) await dropHistoryAndViews(o.store);
    const before = await o.bytes();
    const first = await syncSeconds(o.store, sandbox);
    const afterFirst = await o.bytes();
    await sandbox.advance({ seconds: 3600, updateFraction: 0.01, addFraction: 0, removeFraction: 0 });
    const incr = await syncSeconds(o.store, sandbox);
    const afterIncr = await o.bytes();
    const historyRows = Number(
      (
        await o.store.db
          .selectFrom('row_history')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    let started = performance.now();
    const tableRows = (await o.store.db.selectFrom('assets').selectAll().where('deleted_at', 'is', null).execute()).length;
    const tableMs = performance.now() - started;
    let viewMs = NaN;
    if (withHistory) {
      started = performance.now();
      const viewRows = (await o.store.db.selectFrom('v_assets').selectAll().execute()).length;
      viewMs = performance.now() - started;
      if (viewRows !== tableRows) throw new Error(`v_assets has ${viewRows} rows, assets ${tableRows} live`);
    }
    return { first, firstBytes: afterFirst - before, incr, incrBytes: afterIncr - afterFirst, historyRows, viewMs, tableMs };
  } finally {
    await o.cleanup();
    await sandbox.stop();
  }
}

/**
 * The trigger alone, without the network and the sandbox's noise: N rows written, then all N changed
 * (one page transaction per 1,000 rows, as a sync writes), with and without the history triggers.
 */
async function changedRowsMs(withHistory: boolean, n: number): Promise<{ insertMs: number; changeMs: number; historyBytes: number }> {
  const o = await open();
  try {
    if (!withHistory) await dropHistoryAndViews(o.store);
    const raw = JSON.stringify({ filler: 'x'.repeat(1200) });
    const write = async (hash: string) => {
      const started = performance.now();
      for (let i = 0; i < n; i += 1000) {
        const rows = Array.from({ length: Math.min(1000, n - i) }, (_, j) => ({
          id: i + j + 1,
          asset_class: 'token',
          raw,
          row_hash: `${hash}${i + j}`,
        }));
        await o.store.transaction((tx) => tx.upsertChanged('assets', ['id'], rows, new Date().toISOString()));
      }
      return performance.now() - started;
    };
    const insertMs = await write('a');
    const before = await o.bytes();
    const changeMs = await write('b');
    return { insertMs, changeMs, historyBytes: (await o.bytes()) - before };
  } finally {
    await o.cleanup();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const samples = { base: [] as Sample[], history: [] as Sample[] };
for (let i = 0; i < REPEAT; i++) {
  // Interleaved, alternating which goes first, so drift on a shared machine hits both alike.
  const order = i % 2 === 0 ? (['base', 'history'] as const) : (['history', 'base'] as const);
  for (const variant of order) samples[variant].push(await once(variant === 'history'));
}
const CHANGED = 20_000;
const micro = { base: [] as Awaited<ReturnType<typeof changedRowsMs>>[], history: [] as Awaited<ReturnType<typeof changedRowsMs>>[] };
for (let i = 0; i < REPEAT; i++) {
  for (const variant of i % 2 === 0 ? (['base', 'history'] as const) : (['history', 'base'] as const))
    micro[variant].push(await changedRowsMs(variant === 'history', CHANGED));
}
const mm = (variant: 'base' | 'history', key: 'insertMs' | 'changeMs' | 'historyBytes') => median(micro[variant].map((s) => s[key]));
const m = (variant: 'base' | 'history', key: keyof Sample) => median(samples[variant].map((s) => s[key]));
const kib = (bytes: number) => (bytes / 1024).toFixed(0);
const pct = (a: number, b: number) => (b === 0 ? '–' : `${(((a - b) / b) * 100).toFixed(1)}%`);
const row = (label: string, key: keyof Sample, unit: (n: number) => string) =>
  `| ${label} | ${unit(m('base', key))} | ${unit(m('history', key))} | ${pct(m('history', key), m('base', key))} |`;
const store = args.db ? 'PostgreSQL' : 'SQLite';
process.stdout.write(
  [
    `### History and views, scale ${SCALE} (${store}; median of ${REPEAT} interleaved pairs)`,
    '',
    '| measure | without history and views | with them | extra |',
    '|---|---|---|---|',
    row('first sync, seconds', 'first', (n) => n.toFixed(2)),
    row('first sync, store KiB', 'firstBytes', kib),
    row('1%-changed incremental, seconds', 'incr', (n) => n.toFixed(2)),
    row('1%-changed incremental, store KiB added', 'incrBytes', kib),
    `| row_history rows after both runs | ${m('base', 'historyRows')} | ${m('history', 'historyRows')} | |`,
    '',
    `Reading every live asset: the \`assets\` table ${m('history', 'tableMs').toFixed(0)} ms, the \`v_assets\` view (typed columns lifted from raw) ${m('history', 'viewMs').toFixed(0)} ms.`,
    '',
    `The trigger alone (no network): ${CHANGED} rows of 1.2 KB written, then all changed, 1,000 per transaction.`,
    '',
    '| measure | without history | with history | extra |',
    '|---|---|---|---|',
    `| first write, ms | ${mm('base', 'insertMs').toFixed(0)} | ${mm('history', 'insertMs').toFixed(0)} | ${pct(mm('history', 'insertMs'), mm('base', 'insertMs'))} |`,
    `| every row changed, ms | ${mm('base', 'changeMs').toFixed(0)} | ${mm('history', 'changeMs').toFixed(0)} | ${pct(mm('history', 'changeMs'), mm('base', 'changeMs'))} |`,
    `| every row changed, store KiB added | ${kib(mm('base', 'historyBytes'))} | ${kib(mm('history', 'historyBytes'))} | |`,
    '',
  ].join('\n'),
);
