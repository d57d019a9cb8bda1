// The one write rule of a webhook delivery: a group of accepted deliveries as the rows each table gets,
// and what a key held already keeps, stated as data (RowsWrite) that the store writes alike in its writer
// thread (SQLite on disk) or its own durable transaction (Store.openDurableWriter).
import { keyString, type Row, type RowsWrite } from '../store/index.js';
import { CHANGE_KEY, CHANGE_UPDATES, setAsidePair } from './delivery-changes.js';
import { deliveryRows, type AcceptedDelivery, type DeliveryRows, type ReadDelivery } from './delivery-rows.js';

const PAIR_KEY = ['delivery_id', 'view_id'];
const ALERT_KEY = ['view_id', 'event_id', 'development_id'];

export function deliveryWrites(group: readonly AcceptedDelivery[]): RowsWrite[] {
  const rows = group.filter((d): d is ReadDelivery & AcceptedDelivery => d.envelope !== null).map(deliveryRows);
  const setAside = group.flatMap((d) => (d.setAside ? [d.setAside] : []));
  const writes: RowsWrite[] = [
    // A change of shape seen again moves its counts (the last of the group's: they only grow) and last_seen_at.
    {
      table: 'schema_changes',
      key: CHANGE_KEY,
      rows: firstOfKey(
        group.flatMap((d) => d.changes),
        CHANGE_KEY,
        true,
      ),
      update: { columns: CHANGE_UPDATES },
    },
    { table: 'webhook_set_aside', key: ['body_hash'], rows: firstOfKey(setAside, ['body_hash']), counted: true },
    { table: 'webhook_deliveries', key: ['id'], rows: firstByKey(rows, 'delivery', ['id']) },
    // A delivery id already held may reach another view (the service sends one id to every view the
    // development matches): the (delivery, view) pair is what is new, and a retry adds none.
    { table: 'alert_deliveries', key: PAIR_KEY, rows: firstByKey(rows, 'pair', PAIR_KEY), counted: true },
    // A delivery set aside has its pair too (state 'set aside'), counted once above as kept aside.
    { table: 'alert_deliveries', key: PAIR_KEY, rows: firstOfKey(setAside.map(setAsidePair), PAIR_KEY) },
    // An alert new to alert_history is inserted; one a backfill found first gains the webhook's arrival and
    // its match time (the service's own), so it says both ways; one a webhook already brought (a retry, or
    // another delivery id for it) is left as it is.
    {
      table: 'alert_history',
      key: ALERT_KEY,
      rows: firstByKey(rows, 'alert', ALERT_KEY),
      update: { columns: ['webhook_at', 'matched_at'], whereNull: 'webhook_at' },
    },
    // Insert-only: a development the sync already fetched in detail is never overwritten.
    { table: 'monitoring_developments', key: ['id'], rows: firstByKey(rows, 'development', ['id']) },
  ];
  return writes.filter((w) => w.rows.length > 0);
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

/** The first (or `last`) row of each key, sorted by key. */
function firstOfKey(rows: readonly Row[], key: readonly string[], last = false): Row[] {
  const first = new Map<string, Row>();
  for (const row of rows) {
    const k = keyString(key.map((c) => row[c]));
    if (last || !first.has(k)) first.set(k, row);
  }
  return [...first.keys()].sort().map((k) => first.get(k)!);
}
