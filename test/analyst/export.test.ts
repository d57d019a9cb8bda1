// @end-to-end
// Exports read back by an independent reader (DuckDB): the same rows and typed columns as the store
// holds, for views and tables, on both stores; written a batch (one Parquet row group) at a time.
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { exportRelation } from '../../src/export/export-relation.js';
import { ANALYST_VIEWS } from '../../schema/views/index.js';
import type { Store } from '../../src/store/index.js';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { NO_DETAILS, settings, syncOnce } from '../helpers/mirror.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

const DUCK_TYPES = {
  text: 'VARCHAR',
  json: 'JSON',
  integer: 'BIGINT',
  double: 'DOUBLE',
  boolean: 'BOOLEAN',
  timestamp: 'TIMESTAMP WITH TIME ZONE',
  date: 'DATE',
};

async function count(store: Store, relation: string): Promise<number> {
  return Number(
    (
      await store.db
        .selectFrom(relation)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
}

describe.each(dialects)('export on %s', (dialect) => {
  let sb: Sandbox;
  let t: TestStore;
  let dir: string;
  let duck: DuckDBConnection;

  beforeAll(async () => {
    sb = await startSandbox({ start: PINNED_START, scale: 0.1, seed: 3 });
    t = await openTestStore(dialect);
    // The views exported read no development's detail: none is fetched (a request each).
    const monitoring = { ...settings().monitoring, details: NO_DETAILS };
    await syncOnce(t.store, sb, ['assets', 'market-stats', 'monitoring-events', 'token-unlocks'], { settings: { monitoring } });
    dir = mkdtempSync(join(tmpdir(), 'ds-export-'));
    duck = await (await DuckDBInstance.create(':memory:')).connect();
  }, 120_000);
  afterAll(async () => {
    duck?.closeSync();
    await t?.cleanup();
    await sb?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    'v_assets',
    'v_market_stats_daily',
    'v_events',
    'v_token_unlocks',
  ])('%s to Parquet: DuckDB reads the same rows and column types', async (view) => {
    const file = join(dir, `${view}.parquet`);
    const result = await exportRelation(t.store, { relation: view, format: 'parquet', file, batchRows: 97 });
    const rows = await count(t.store, view);
    expect(rows).toBeGreaterThan(0);
    expect(result.rows).toBe(rows);
    const described = (await duck.runAndReadAll(`describe select * from read_parquet('${file}')`)).getRowObjects();
    const spec = ANALYST_VIEWS.find((v) => v.name === view)!;
    expect(described.map((d) => [d.column_name, d.column_type])).toEqual(spec.columns.map((c) => [c.name, DUCK_TYPES[c.kind]]));
    const [{ n }] = (await duck.runAndReadAll(`select count(*)::integer as n from read_parquet('${file}')`)).getRowObjects();
    expect(n).toBe(rows);
    // One row group per batch: the file was written a batch at a time.
    const [{ groups }] = (
      await duck.runAndReadAll(`select count(distinct row_group_id)::integer as groups from parquet_metadata('${file}')`)
    ).getRowObjects();
    expect(groups).toBe(Math.ceil(rows / 97));
  });

  it('a read stopped after its first batch (a failed write) leaves the store free for the next statement', async () => {
    const batches = t.store.adapter.readBatches('assets', 5);
    const first = await batches.next();
    expect(first.value).toHaveLength(5);
    await batches.return(undefined);
    // better-sqlite3 refuses any write on a connection whose read is still open ("busy executing a query").
    await sql`update assets set slug = slug where 1 = 0`.execute(t.store.db);
    expect(await count(t.store, 'assets')).toBeGreaterThan(5);
  });

  it('values survive the trip: a row read back by DuckDB equals the store row', async () => {
    const file = join(dir, 'market.parquet');
    await exportRelation(t.store, { relation: 'v_market_stats_daily', format: 'parquet', file });
    const store = (await t.store.db
      .selectFrom('v_market_stats_daily')
      .selectAll()
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow()) as Record<string, any>;
    const [back] = (
      await duck.runAndReadAll(
        `select id::double as id, strftime(date, '%Y-%m-%d') as date, total_market_cap_usd, epoch_ms(updated_at)::double as updated_at from read_parquet('${file}') order by id limit 1`,
      )
    ).getRowObjects();
    expect(back).toEqual({
      id: store.id,
      date: store.date,
      total_market_cap_usd: store.total_market_cap_usd,
      updated_at: Date.parse(store.updated_at),
    });
  });

  it('a table to CSV: a header and one line per row, read back by DuckDB', async () => {
    const file = join(dir, 'events.csv');
    const result = await exportRelation(t.store, { relation: 'monitoring_events', format: 'csv', file, batchRows: 50 });
    expect(result.rows).toBe(await count(t.store, 'monitoring_events'));
    expect(readFileSync(file, 'utf8').split('\r\n')[0]).toMatch(/^id,slug,title,/);
    const [{ n }] = (await duck.runAndReadAll(`select count(*)::integer as n from read_csv('${file}', header = true)`)).getRowObjects();
    expect(n).toBe(result.rows);
  });

  it('as a command: the format from the extension, one summary line, exit 0', async () => {
    const file = join(dir, 'cli-unlocks.parquet');
    let out = '';
    const io = { stdout: { write: (s: string) => ((out += s), true) }, stderr: { write: () => true, isTTY: false }, env: {} };
    const db = ['--db', t.url, ...(t.schema ? ['--db-schema', t.schema] : []), '--log-level', 'silent'];
    const code = await main(['node', 'ds-mirror', ...db, 'export', 'v_token_unlocks', '--out', file, '--batch-rows', '40'], io as never);
    const rows = await count(t.store, 'v_token_unlocks');
    expect([code, out]).toEqual([0, `v_token_unlocks: ${rows} rows, 13 columns → ${file} (parquet)\n`]);
    const [{ n }] = (await duck.runAndReadAll(`select count(*)::integer as n from read_parquet('${file}')`)).getRowObjects();
    expect(n).toBe(rows);
  });

  it('an extension it does not write (.xlsx) is refused: exit 2, one line, no file', async () => {
    const file = join(dir, 'assets.xlsx');
    let err = '';
    const io = { stdout: { write: () => true }, stderr: { write: (s: string) => ((err += s), true), isTTY: false }, env: {} };
    const db = ['--db', t.url, ...(t.schema ? ['--db-schema', t.schema] : []), '--log-level', 'silent'];
    const code = await main(['node', 'ds-mirror', ...db, 'export', 'v_assets', '--out', file], io as never);
    expect([code, err.trim().split('\n').length]).toEqual([2, 1]);
    expect(err).toMatch(/\.xlsx is not a format export writes; use \.csv or \.parquet/);
    expect(existsSync(file) || existsSync(`${file}.partial`)).toBe(false);
  });

  it('an unknown name is one clear error and writes no file', async () => {
    const file = join(dir, 'nothing.csv');
    await expect(exportRelation(t.store, { relation: 'v_nope', format: 'csv', file })).rejects.toThrow(/no table or view named "v_nope"/);
    expect(existsSync(file) || existsSync(`${file}.partial`)).toBe(false);
  });
});
