// A SQLite mirror with rows in every table and view, for the readers that open the file on their own:
// the shared analyst mirror (every stream, the fan-outs of a few parents, then the clock advanced and
// synced again so history has versions: test/analyst/analyst-fixture.ts), and one made-up row in each
// table no sync fills (webhook deliveries, leases, quarantine...), typed as the table declares its columns.
import { sql } from 'kysely';
import type { Store } from '../../src/store/index.js';

/** Empty by design: the typed views' first branch reads it (migration 0041), and its check refuses any row. */
export const ALWAYS_EMPTY = 'view_column_types';

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

/** Fills the empty tables of `store` (SQLite; the shared analyst mirror, analyst-fixture.ts) with one made-up row each. */
export async function fillEveryTable(store: Store): Promise<void> {
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
