// Reads a whole table in primary-key order, a batch at a time (keyset paging: each batch starts after
// the last key of the previous one, along the key's index), so a table of any size streams in bounded
// memory. The order is the store's own: byte order on SQLite, the column's collation on PostgreSQL.
import { sql } from 'kysely';
import type { TableInfo } from '../store/store-tables.js';
import type { Row, Store } from '../store/types.js';

export async function* readInKeyOrder(store: Store, table: TableInfo, batchRows: number): AsyncGenerator<Row[]> {
  if (table.key.length === 0) {
    // No key to page by (no such table today): one read.
    const rows = (await store.db.selectFrom(table.name).selectAll().execute()) as Row[];
    if (rows.length > 0) yield rows;
    return;
  }
  const keys = table.key.map((k) => sql.ref(k));
  let after: unknown[] | null = null;
  for (;;) {
    let query = store.db.selectFrom(table.name).selectAll();
    if (after) query = query.where(sql<boolean>`(${sql.join(keys)}) > (${sql.join(after)})`);
    for (const key of table.key) query = query.orderBy(key);
    const rows = (await query.limit(batchRows).execute()) as Row[];
    if (rows.length > 0) yield rows;
    if (rows.length < batchRows) return;
    const last = rows[rows.length - 1];
    after = table.key.map((k) => last[k]);
  }
}
