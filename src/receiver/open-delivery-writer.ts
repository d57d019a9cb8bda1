// Where accepted deliveries are committed. A SQLite file gets a writer thread with its own
// connection (sqlite-writer.ts): better-sqlite3 runs the inserts and the commit's fsync
// synchronously, which on the HTTP thread stalled every request behind each group commit.
// PostgreSQL (whose driver is asynchronous) and an in-memory SQLite database commit through the store.
import { sql } from 'kysely';
import type { Store } from '../store/types.js';
import type { DeliveryWriter } from './delivery-writer.js';
import { startSqliteWriter } from './sqlite-writer.js';
import { storeWriter } from './store-writer.js';

export async function openDeliveryWriter(store: Store): Promise<DeliveryWriter> {
  if (store.dialect === 'sqlite') {
    const { rows } = await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(store.db);
    const file = rows[0]?.file ?? '';
    // An in-memory database exists only on the store's own connection.
    if (file !== '') return startSqliteWriter(file);
  }
  return storeWriter(store);
}
