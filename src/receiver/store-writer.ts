// Commits a group through the store's own transaction: one durable transaction, one multi-row
// insert per table. Used for PostgreSQL, whose driver does not block the event loop.
import { keyString, type Row, type Store } from '../store/types.js';
import { deliveryRows } from './delivery-rows.js';
import type { DeliveryWriter } from './delivery-writer.js';

export function storeWriter(store: Store): DeliveryWriter {
  let commits = 0;
  return {
    // One group at a time: two in flight measured only +4% deliveries/s against a durable server,
    // for 12% more CPU here (smaller groups).
    maxInFlight: 1,
    write(group) {
      const rows = group.map(deliveryRows);
      return store.transaction(
        async (tx) => {
          const inserted = await tx.insertIgnore(
            'webhook_deliveries',
            ['id'],
            firstByKey(
              rows.map((r) => r.delivery),
              ['id'],
            ),
          );
          // Every delivery adds its (view, event) pair, even a duplicate delivery id: the same event
          // delivered to a second view shares the id but is a second alert.
          await tx.insertIgnore(
            'alert_history',
            ['view_id', 'event_id'],
            firstByKey(
              rows.map((r) => r.alert),
              ['view_id', 'event_id'],
            ),
          );
          // Insert-only: a development the sync already fetched in detail is never overwritten.
          await tx.insertIgnore(
            'monitoring_developments',
            ['id'],
            firstByKey(
              rows.map((r) => r.development),
              ['id'],
            ),
          );
          return { inserted, commit: ++commits };
        },
        { durable: true },
      );
    },
    close: async () => {},
  };
}

/**
 * Keeps the first row of each key, so the earliest arrival wins inside a group as across groups,
 * sorted by key: receivers sharing one PostgreSQL then take row locks in the same order and
 * cannot deadlock on the same deliveries.
 */
function firstByKey(rows: readonly Row[], key: readonly string[]): Row[] {
  const first = new Map<string, Row>();
  for (const row of rows) {
    const k = keyString(key.map((c) => row[c]));
    if (!first.has(k)) first.set(k, row);
  }
  return [...first.keys()].sort().map((k) => first.get(k)!);
}
