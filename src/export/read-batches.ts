// Reads every row of a table or view in batches, so an export's memory stays flat at any size. How
// is the store's to say (SQLite iterates one statement, PostgreSQL fetches from a server-side cursor
// inside a read-only transaction).
import type { Row, Store } from '../store/types.js';

export function readBatches(store: Store, relation: string, batchRows: number): AsyncGenerator<Row[]> {
  return store.adapter.readBatches(relation, batchRows);
}
