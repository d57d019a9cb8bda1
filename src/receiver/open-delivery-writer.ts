// Where accepted deliveries are committed: the store's durable writer, handed each group as the rows its
// write rule makes (delivery-writes.ts). On a SQLite file that is the store's writer thread, whose
// connection's inserts and fsync would otherwise stall every request behind each group commit on this
// thread; elsewhere (PostgreSQL, an in-memory SQLite database) the store's own durable transactions.
import type { Store } from '../store/index.js';
import { deliveryWrites } from './delivery-writes.js';
import type { DeliveryWriter } from './delivery-writer.js';

export async function openDeliveryWriter(store: Store): Promise<DeliveryWriter> {
  const writer = await store.openDurableWriter();
  return {
    maxInFlight: writer.maxInFlight,
    async write(group) {
      const { result, commit } = await writer.write(deliveryWrites(group));
      return { inserted: result, commit };
    },
    close: () => writer.close(),
  };
}
