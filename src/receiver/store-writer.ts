// Commits a group through the store's own transaction: one durable transaction, one multi-row
// statement per table. Used where the store offers no writer thread (its driver does not block the event loop).
import { keyString, type Row, type Store, type StoreTx } from '../store/types.js';
import { CHANGE_KEY, CHANGE_UPDATES, setAsidePair } from './delivery-changes.js';
import { deliveryRows, type DeliveryRows, type ReadDelivery } from './delivery-rows.js';
import type { DeliveryWriter } from './delivery-writer.js';
import { ALERT_KEY, mergeWebhookAlerts } from './webhook-alerts.js';

const PAIR_KEY = ['delivery_id', 'view_id'];

export function storeWriter(store: Store): DeliveryWriter {
  let commits = 0;
  return {
    // One group at a time: a second in flight adds little throughput against a durable server and
    // costs CPU here (smaller groups).
    maxInFlight: 1,
    write(group) {
      const rows = group.filter((d): d is ReadDelivery & (typeof group)[number] => d.envelope !== null).map(deliveryRows);
      const setAside = group.flatMap((d) => (d.setAside ? [d.setAside] : []));
      return store.transaction(
        async (tx) => {
          await writeChanges(
            tx.db,
            group.flatMap((d) => d.changes),
          );
          const keptAside = await tx.insertIgnore('webhook_set_aside', ['body_hash'], firstOfKey(setAside, ['body_hash']));
          await tx.insertIgnore('webhook_deliveries', ['id'], firstByKey(rows, 'delivery', ['id']));
          // A delivery id already held may reach another view (one id for every view a development
          // matches): the (delivery, view) pair is what is new, and a retry adds none.
          const inserted = await tx.insertIgnore('alert_deliveries', PAIR_KEY, firstByKey(rows, 'pair', PAIR_KEY));
          // A delivery set aside has its pair too (state 'set aside'), counted once above as kept aside.
          await tx.insertIgnore('alert_deliveries', PAIR_KEY, firstOfKey(setAside.map(setAsidePair), PAIR_KEY));
          await mergeWebhookAlerts(tx.db, firstByKey(rows, 'alert', ALERT_KEY));
          // Insert-only: a development the sync already fetched in detail is never overwritten.
          await tx.insertIgnore('monitoring_developments', ['id'], firstByKey(rows, 'development', ['id']));
          return { inserted: inserted + keptAside, commit: ++commits };
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
function firstByKey(rows: readonly DeliveryRows[], table: keyof DeliveryRows, key: readonly string[]): Row[] {
  return firstOfKey(
    rows.map((r) => r[table]),
    key,
  );
}

function firstOfKey(rows: readonly Row[], key: readonly string[], last = false): Row[] {
  const first = new Map<string, Row>();
  for (const row of rows) {
    const k = keyString(key.map((c) => row[c]));
    if (last || !first.has(k)) first.set(k, row);
  }
  return [...first.keys()].sort().map((k) => first.get(k)!);
}

/** The group's changes of shape, the last of each (the counts only grow), in one statement. */
async function writeChanges(db: StoreTx['db'], changes: readonly Row[]): Promise<void> {
  if (changes.length === 0) return;
  await db
    .insertInto('schema_changes')
    .values(firstOfKey(changes, CHANGE_KEY, true) as never[])
    .onConflict((oc) =>
      oc.columns([...CHANGE_KEY]).doUpdateSet((eb) => Object.fromEntries(CHANGE_UPDATES.map((c) => [c, eb.ref(`excluded.${c}`)]))),
    )
    .execute();
}
