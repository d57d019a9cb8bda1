// What the PostgreSQL crosswalk's recomputation at commit costs the server: the same writes to its sources
// (pages of `/v1` assets, of monitoring event assets, token-unlock assets), one transaction a page as a sync
// writes them, into two migrated databases of a throwaway cluster (the defaults a user has): one as the
// migrations leave it (0072: the deferred trigger fires once a transaction), one with 0060's trigger put
// back (once per noted row). Rounds alternate the two; the figure is the backend's CPU (/proc of the
// server process behind the one connection), medians, and the crosswalk rows must be the same in both.
//   npx tsx bench/crosswalk-flush.ts [--rounds 5] [--pages 20]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { MIRROR_SCHEMA } from '../src/mirror-schema/index.js';
import { openStore } from '../src/store/index.js';
import { startPgCluster } from '../test/helpers/pg-cluster.js';
import { databaseUrl, withAdmin } from '../test/helpers/store-templates.js';

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, pages: { type: 'string', default: '20' } } });
const SCHEMA = 'mirror';
const MIRRORED = `'{}', 'h', now(), now()`;

/** 0060's trigger, as it was before 0072: fired for every pending row. */
const PER_ROW = [
  'drop trigger asset_crosswalk_note_due on asset_crosswalk_pending',
  'drop trigger asset_crosswalk_flush on asset_crosswalk_pending',
  `create constraint trigger asset_crosswalk_flush after insert on asset_crosswalk_pending deferrable initially deferred
    for each row execute function asset_crosswalk_flush()`,
];

/** A sync's pages: token-unlock assets once, then pages of event assets and of `/v1` assets, some meeting each other's keys. */
function pages(count: number): string[] {
  const out = [
    `insert into token_unlock_assets (id, symbol, name, slug, raw, row_hash, first_seen_at, synced_at)
      select 'u-' || g, 'S' || g, 'Name ' || g, 'slug-' || g, ${MIRRORED} from generate_series(1, 300) g`,
  ];
  for (let p = 0; p < count; p++) {
    out.push(`insert into monitoring_event_assets (event_id, asset_id, name, slug, symbol, class)
      select 'e-${p}-' || g, 'm-' || (g * 7 + ${p}) % 500, 'Name ' || (g * 7 + ${p}) % 500, 'mslug-' || (g * 7 + ${p}) % 500,
        'S' || (g * 7 + ${p}) % 500, 'primary' from generate_series(1, 200) g`);
    out.push(`insert into assets (id, asset_class, code, title, slug, market_cap_rank, raw, row_hash, first_seen_at, synced_at)
      select g, 'token', 'S' || g, 'Name ' || g, case when g % 3 = 0 then 'slug-' || g else 'a-' || g end, g, ${MIRRORED}
      from generate_series(${p * 250 + 1}, ${(p + 1) * 250}) g`);
  }
  return out;
}

function backendCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in ticks of 10 ms
}

async function round(url: string, writes: string[]): Promise<{ cpuMs: number; rows: string }> {
  const client = new pg.Client({ connectionString: url, options: `-c search_path=${SCHEMA}` });
  await client.connect();
  try {
    await client.query('truncate assets, token_unlock_assets, monitoring_event_assets, asset_crosswalk, asset_crosswalk_pending');
    await client.query('select count(*) from asset_crosswalk'); // catalog caches warm before the clock starts
    const pid = (await client.query('select pg_backend_pid() as pid')).rows[0].pid as number;
    const start = backendCpuMs(pid);
    for (const write of writes) await client.query(`begin; ${write}; commit`);
    const cpuMs = backendCpuMs(pid) - start;
    const { rows } = await client.query(
      `select md5(string_agg(concat_ws(' ', source, source_asset_id, v1_asset_id, match_method, confidence, candidates), E'\\n'
        order by source, source_asset_id)) as h, count(*) as n, (select count(*) from asset_crosswalk_pending) as pending from asset_crosswalk`,
    );
    return { cpuMs, rows: `${rows[0].n} rows, ${rows[0].pending} pending, ${rows[0].h}` };
  } finally {
    await client.end();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const cluster = await startPgCluster();
  try {
    const urls = { 'once a transaction (0072)': '', 'once per pending row (0060)': '' };
    for (const [i, kind] of Object.keys(urls).entries()) {
      await withAdmin(cluster.url, (admin) => admin.query(`create database bench_${i}`));
      const url = databaseUrl(cluster.url, `bench_${i}`);
      const store = await openStore({ url, schema: SCHEMA, migrations: MIRROR_SCHEMA });
      if (i === 1) for (const statement of PER_ROW) await sql.raw(statement).execute(store.db);
      await store.close();
      urls[kind as keyof typeof urls] = url;
    }
    const writes = pages(Number(args.pages));
    const cpu = new Map<string, number[]>();
    const rows = new Map<string, Set<string>>();
    for (let r = 0; r < Number(args.rounds); r++) {
      for (const [kind, url] of Object.entries(urls)) {
        const result = await round(url, writes);
        cpu.set(kind, [...(cpu.get(kind) ?? []), result.cpuMs]);
        rows.set(kind, (rows.get(kind) ?? new Set()).add(result.rows));
      }
    }
    console.log(`${writes.length} transactions, ${args.rounds} rounds each, the backend's CPU in ms`);
    for (const [kind, ms] of cpu) console.log(`${kind}: median ${median(ms)} ms (${ms.join(', ')}); ${[...rows.get(kind)!].join(' | ')}`);
    const [after, before] = [...cpu.values()].map(median);
    console.log(`ratio, once a transaction to once a row: ${(after! / before!).toFixed(2)}`);
    if (new Set([...rows.values()].flatMap((s) => [...s])).size !== 1) throw new Error('the crosswalk rows differ between the two');
  } finally {
    await cluster.stop();
  }
}

await main();
