// Reads a whole table in primary-key order, a batch at a time (keyset paging: each batch starts after
// the last key of the previous one), so a table of any size streams in bounded memory. Text keys
// compare byte for byte on both dialects (PostgreSQL `collate "C"` = SQLite's BINARY), so two stores
// yield their rows in the same order.
import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import type { TableInfo } from './store-tables.js';
import type { Row, Store } from './types.js';

export async function* readInKeyOrder(store: Store, table: TableInfo, batchRows: number): AsyncGenerator<Row[]> {
  if (table.key.length === 0) {
    // No key to page by (no such table today): one read.
    const rows = (await store.db.selectFrom(table.name).selectAll().execute()) as Row[];
    if (rows.length > 0) yield rows;
    return;
  }
  const keys = table.key.map((k) => orderedRef(store, table, k));
  let after: unknown[] | null = null;
  for (;;) {
    let query = store.db.selectFrom(table.name).selectAll();
    if (after) query = query.where(sql<boolean>`(${sql.join(keys)}) > (${sql.join(after)})`);
    for (const key of keys) query = query.orderBy(key);
    const rows = (await query.limit(batchRows).execute()) as Row[];
    if (rows.length > 0) yield rows;
    if (rows.length < batchRows) return;
    const last = rows[rows.length - 1];
    after = table.key.map((k) => last[k]);
  }
}

function orderedRef(store: Store, table: TableInfo, column: string): RawBuilder<unknown> {
  const kind = table.columns.find((c) => c.name === column)?.kind;
  const byBytes = store.dialect === 'postgres' && (kind === 'text' || kind === 'other');
  return byBytes ? sql`${sql.ref(column)} collate "C"` : sql`${sql.ref(column)}`;
}
