// What the store's writer thread runs for the receiver (StoreAdapter.writerThread): one group of
// deliveries written into the thread's own connection, inside the transaction of every group that
// queued with it. Runs in that thread: it loads only the rows' rules, nothing of the store's root.
import type { Row, RowWriter } from '../store/types.js';
import { changeSql, setAsidePair } from './delivery-changes.js';
import { deliveryRows } from './delivery-rows.js';
import type { Envelope } from './parse-envelope.js';
import { webhookAlertSql } from './webhook-alerts.js';

/**
 * One group: [raw body, signed, received at, more] per delivery, compact to post; the thread builds the
 * rows. `more` (JSON text) only for a delivery of another shape: its changes, its envelope as coerced, or
 * its row set aside.
 */
export type DeliveryGroup = [string, boolean, string, string | null][];

export interface DeliveryMore {
  envelope?: Envelope;
  changes?: Row[];
  setAside?: Row;
}

/** Insert-only tables: the first row of a key wins (a development the sync fetched in detail stays). */
const INSERT_ONLY = {
  delivery: { table: 'webhook_deliveries', key: ['id'] },
  pair: { table: 'alert_deliveries', key: ['delivery_id', 'view_id'] },
  development: { table: 'monitoring_developments', key: ['id'] },
  setAside: { table: 'webhook_set_aside', key: ['body_hash'] },
} as const;

/** Writes the group; returns the (delivery, view) pairs and deliveries set aside that were new. */
export function writeRequest(db: RowWriter, group: DeliveryGroup): number {
  const insert = (table: keyof typeof INSERT_ONLY, row: Record<string, unknown>) =>
    db.insertIgnore(INSERT_ONLY[table].table, INSERT_ONLY[table].key, row);
  let inserted = 0;
  for (const [body, signed, receivedAt, moreText] of group) {
    const more: DeliveryMore = moreText === null ? {} : JSON.parse(moreText);
    for (const change of more.changes ?? []) db.run('shape', changeSql, change);
    if (more.setAside) {
      inserted += insert('setAside', more.setAside);
      insert('pair', setAsidePair(more.setAside));
      continue;
    }
    // The HTTP thread validated this body; parsing it again here is cheaper than copying the parsed object.
    const rows = deliveryRows({ envelope: more.envelope ?? JSON.parse(body), body, signed, receivedAt });
    insert('delivery', rows.delivery);
    // A delivery id the log already holds may reach another view (the service sends one id to every
    // view the development matches): the pair is what is new, and a retry adds none.
    inserted += insert('pair', rows.pair);
    db.run('alert', webhookAlertSql, rows.alert);
    insert('development', rows.development);
  }
  return inserted;
}
