// The store's durable writer (Store.openDurableWriter) where the adapter has no writer thread: its driver
// does not block the event loop (PostgreSQL), or no second connection can open the database (SQLite in
// memory). Each call's writes commit in one durable transaction of the store's own.
import type { DurableWriter, Store } from './types.js';

export function transactionWriter(store: Pick<Store, 'transaction'>): DurableWriter {
  let commits = 0;
  return {
    // One call at a time: a second in flight adds little throughput against a durable server and costs
    // the caller CPU (it would send smaller groups).
    maxInFlight: 1,
    write: (writes) => store.transaction(async (tx) => ({ result: await tx.writeRows(writes), commit: ++commits }), { durable: true }),
    close: async () => {},
  };
}
