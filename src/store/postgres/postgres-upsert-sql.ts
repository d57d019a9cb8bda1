// The SQL text of a page upsert on PostgreSQL: the rows travel as one jsonb array of arrays
// (jsonb-rows.ts), and ON CONFLICT writes a row only when the changed-row rule says so.
import { rowChangedSql } from '../changed-row.js';
import { POSTGRES_ANALYST_SQL } from './postgres-analyst-sql.js';
import { quoteIdent } from '../store-adapter.js';
import type { UpsertPage } from '../types.js';
import { jsonbRows, type JsonbRows } from './jsonb-rows.js';
import { PREPARED } from './prepared-pool.js';

/** One upsert statement: $1 the rows (encoding.encode), $2 the time; returns one `inserted` per row written. */
export interface UpsertStatement {
  text: string;
  encoding: JsonbRows;
}

export function upsertStatement(page: UpsertPage, types: readonly string[]): UpsertStatement {
  const keys = new Set(page.key);
  const sets = page.columns.filter((c) => !keys.has(c)).map((c) => `${quoteIdent(c)} = excluded.${quoteIdent(c)}`);
  const encoding = jsonbRows(
    types,
    page.columns.map((c) => `${page.table}.${c}`),
  );
  const text =
    PREPARED +
    `insert into ${quoteIdent(page.table)} as t (${page.columns.map(quoteIdent).join(', ')}, first_seen_at, synced_at, deleted_at) ` +
    `select ${encoding.select}, $2::timestamptz, $2::timestamptz, null from jsonb_array_elements($1::jsonb) as e ` +
    `on conflict (${page.key.map(quoteIdent).join(', ')}) do update set ${sets.join(', ')}, ` +
    'synced_at = excluded.synced_at, deleted_at = null ' +
    `where ${rowChangedSql(POSTGRES_ANALYST_SQL, 't', 'excluded')} ` +
    'returning (xmax = 0) as inserted';
  return { text, encoding };
}

/**
 * The stored row_hash of each given key ($1.. are arrays of the key columns), and whether it is live.
 * One primary-key probe per key, whatever the statistics: a plan cached while the table was empty (a
 * first sync) would otherwise scan every row for every page. Hence LATERAL with OFFSET 0 (never
 * flattened into a join) and no deleted_at in the WHERE (which makes the partial live-keys index, led
 * by other columns, look cheaper).
 */
export function heldRowsQuery(table: string, key: readonly string[], keyTypes: readonly string[]): string {
  const match = key.map((k, i) => `${quoteIdent(k)} = k.c${i}`).join(' and ');
  return (
    `select t.* from unnest(${keyTypes.map((type, i) => `$${i + 1}::${type}[]`).join(', ')}) as k(${key.map((_, i) => `c${i}`).join(', ')}) ` +
    `cross join lateral (select ${key.map(quoteIdent).join(', ')}, row_hash, deleted_at is null as live from ${quoteIdent(table)} where ${match} offset 0) as t`
  );
}
