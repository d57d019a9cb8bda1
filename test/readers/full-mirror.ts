// A SQLite mirror with rows in every table and view, for the readers that open the file on their own:
// the sandbox synced as an analyst's would be (every stream, the fan-outs of a few parents, then the
// clock advanced and synced again so history has versions), and one made-up row in each table no sync
// fills (webhook deliveries, leases, quarantine...), typed as the table declares its columns.
import { sql } from 'kysely';
import type { Store } from '../../src/store/index.js';
import type { Sandbox } from '../../sandbox/index.js';
import { syncOnce } from '../helpers/mirror.js';
import { syncAll } from '../analyst/analyst-fixture.js';

/** Empty by design: the typed views' first branch reads it (migration 0041), and its check refuses any row. */
export const ALWAYS_EMPTY = 'view_column_types';

const FANOUTS = ['asset-markets', 'asset-ohlcv', 'asset-price', 'asset-market-cap', 'asset-supply', 'asset-transparency'];

/** The tables and views of a SQLite store, by name. */
export async function objectsOf(store: Store): Promise<{ name: string; type: 'table' | 'view' }[]> {
  const { rows } = await sql<{ name: string; type: 'table' | 'view' }>`
    select name, type from sqlite_master where type in ('table', 'view') and name not like 'sqlite_%' order by type, name`.execute(
    store.db,
  );
  return rows;
}

export async function countOf(store: Store, name: string): Promise<number> {
  return Number((await sql.raw<{ n: number }>(`select count(*) as n from "${name}"`).execute(store.db)).rows[0]!.n);
}

/** Fills `store` (SQLite) from the sandbox until every table has a row. */
export async function fillEveryTable(store: Store, sb: Sandbox): Promise<void> {
  await syncAll(store, sb);
  const ids = async (table: string, column: string) =>
    (
      await sql.raw<{ v: unknown }>(`select ${column} as v from ${table} where deleted_at is null order by 1 limit 2`).execute(store.db)
    ).rows.map((r) => String(r.v));
  const projects = await ids('projects', 'slug');
  const fanouts = await syncOnce(store, sb, [...FANOUTS, 'project-chains', 'metric-series', 'chart-rows'], {
    settings: {
      selection: {
        assets: { top: 3 },
        projects: { ids: projects },
        metrics: { ids: await ids('metrics', 'identifier') },
        charts: { ids: await ids('charts', 'id') },
      },
      fanout: { metricProjects: projects },
    },
  });
  if (fanouts.outcome !== 'success') throw new Error(`fan-outs: ${fanouts.outcome}`);
  await sb.advance({ seconds: 86_400, updateFraction: 0.2, addFraction: 0.01, removeFraction: 0.01 });
  await syncAll(store, sb);
  for (const { name, type } of await objectsOf(store)) {
    if (type === 'table' && name !== ALWAYS_EMPTY && (await countOf(store, name)) === 0) await insertMadeUpRow(store, name);
  }
}

/** One row of values of each column's declared type (JSON columns get an empty object, times and days their text form). */
async function insertMadeUpRow(store: Store, table: string): Promise<void> {
  const { rows } = await sql<{ name: string; type: string }>`select name, type from pragma_table_info(${table})`.execute(store.db);
  const value = (c: { name: string; type: string }): string => {
    if (/^(raw|typed_row|payload|detail|body)$|json/.test(c.name)) return `'{}'`;
    if (/integer/i.test(c.type)) return '1';
    if (/real/i.test(c.type)) return '1.5';
    if (/(_at|_until|expires)$/.test(c.name)) return `'2026-01-02T03:04:05.000Z'`;
    if (/(^|_)(day|date)$/.test(c.name)) return `'2026-01-02'`;
    return `'x'`;
  };
  await sql
    .raw(`insert into "${table}" (${rows.map((c) => `"${c.name}"`).join(', ')}) values (${rows.map(value).join(', ')})`)
    .execute(store.db);
}
