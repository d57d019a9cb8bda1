// Where accepted deliveries are committed. A SQLite file gets a writer thread with its own
// connection (sqlite-writer.ts): better-sqlite3 runs the inserts and the commit's fsync
// synchronously, which on the HTTP thread stalled every request behind each group commit.
// PostgreSQL (whose driver is asynchronous) and an in-memory SQLite database commit through the store.
import type { Store } from '../store/types.js';
import type { DeliveryWriter } from './delivery-writer.js';
import { startSqliteWriter } from './sqlite-writer.js';
import { storeWriter } from './store-writer.js';

export async function openDeliveryWriter(store: Store): Promise<DeliveryWriter> {
  // A file a second connection can open (SQLite on disk); an in-memory database has none.
  const file = store.adapter.sharedFile;
  return file === undefined ? storeWriter(store) : startSqliteWriter(file);
}
