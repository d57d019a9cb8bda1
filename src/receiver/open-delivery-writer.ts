// Where accepted deliveries are committed. A store whose driver blocks the event loop offers a writer
// thread with a connection of its own (SQLite on disk): the inserts and the commit's fsync on the HTTP
// thread stalled every request behind each group commit. Otherwise (PostgreSQL, whose driver is
// asynchronous, or an in-memory SQLite database) groups commit through the store's own transactions.
import type { Store, ThreadWriter } from '../store/types.js';
import type { AcceptedDelivery } from './delivery-rows.js';
import type { DeliveryGroup, DeliveryMore } from './delivery-task.js';
import type { DeliveryWriter } from './delivery-writer.js';
import { storeWriter } from './store-writer.js';

// Beside this file: compiled (.js), or the sources (.ts: tests, `npm run demo`).
const DELIVERY_TASK = new URL(`./delivery-task.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url);

export async function openDeliveryWriter(store: Store): Promise<DeliveryWriter> {
  const thread = await store.adapter.writerThread?.<DeliveryGroup, number>(DELIVERY_TASK);
  return thread ? threadWriter(thread) : storeWriter(store);
}

function threadWriter(thread: ThreadWriter<DeliveryGroup, number>): DeliveryWriter {
  return {
    // Each group is posted as soon as it forms: the thread commits together whatever queued meanwhile.
    maxInFlight: Infinity,
    async write(group) {
      const { result, commit } = await thread.write(group.map((d) => [d.body, d.signed, d.receivedAt, moreOf(d)]));
      return { inserted: result, commit };
    },
    close: () => thread.close(),
  };
}

/** What the body alone does not tell the thread (usually nothing: null). */
function moreOf(d: AcceptedDelivery): string | null {
  if (d.changes.length === 0 && !d.setAside) return null;
  const more: DeliveryMore = { changes: [...d.changes] };
  if (d.setAside) more.setAside = d.setAside;
  else if (d.coerced && d.envelope) more.envelope = d.envelope;
  return JSON.stringify(more);
}
