// One alert per (view, development), not per (view, event): a second development of an event that
// matched a view left no alert of its own, and a webhook for an alert a backfill already held still
// said 'backfill'. alert_history is rekeyed (view, event, development), with when each way first
// brought it (webhook_at, backfill_at); and alert_deliveries keeps every (delivery, view) pair, since the
// service sends one delivery id to every view an event matches and webhook_deliveries (one row per id)
// names only the first. Held rows all survive: each old alert becomes one new one, and the deliveries
// whose alert the old key dropped become alerts again.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes, Dialect } from '../../src/store/types.js';

export async function up(db: Kysely<any>, t: ColumnTypes, dialect: Dialect): Promise<void> {
  await db.schema.dropIndex('alert_history_matched_at').execute();
  await db.schema.alterTable('alert_history').renameTo('alert_history_0037').execute();
  await createAlertHistory(db, t);
  await createAlertDeliveries(db, t);
  // Delivery times as the mirror writes every time (SQLite kept the envelope's text as it came).
  const deliveryTime =
    dialect === 'sqlite' ? `coalesce(strftime('%Y-%m-%dT%H:%M:%fZ', w.event_timestamp), w.event_timestamp)` : 'w.event_timestamp';
  await copyOldAlerts(db, deliveryTime);
  await recoverDroppedAlerts(db, deliveryTime);
  await fillPairs(db, deliveryTime);
  await db.schema.dropTable('alert_history_0037').execute();
}

const ALERT_COLUMNS = 'view_id, event_id, development_id, view_name, matched_at, first_seen_at, source, webhook_at, backfill_at';

/** Each old alert as the alert of its development; one a delivery also brought says both, with the delivery's match time. */
async function copyOldAlerts(db: Kysely<any>, deliveryTime: string): Promise<void> {
  const delivered = (column: string) =>
    `(select min(${column}) from webhook_deliveries w where w.view_id = o.view_id and w.development_id = o.development_id)`;
  await sql
    .raw(
      `insert into alert_history (${ALERT_COLUMNS})
select o.view_id, o.event_id, coalesce(o.development_id, ''), o.view_name,
  case when o.source = 'webhook' then o.matched_at else coalesce(${delivered(deliveryTime)}, o.matched_at) end,
  o.first_seen_at, o.source,
  case when o.source = 'webhook' then o.first_seen_at else ${delivered('w.received_at')} end,
  case when o.source = 'backfill' then o.first_seen_at end
from alert_history_0037 o`,
    )
    .execute(db);
}

/** Developments the old key dropped (a second development of an event the view had matched). */
async function recoverDroppedAlerts(db: Kysely<any>, deliveryTime: string): Promise<void> {
  await sql
    .raw(
      `insert into alert_history (${ALERT_COLUMNS})
select w.view_id, w.event_id, w.development_id, max(w.view_name), min(${deliveryTime}), min(w.received_at), 'webhook', min(w.received_at), null
from webhook_deliveries w
where not exists (select 1 from alert_history a
  where a.view_id = w.view_id and a.event_id = w.event_id and a.development_id = w.development_id)
group by w.view_id, w.event_id, w.development_id`,
    )
    .execute(db);
}

/** The pair of every delivery row, and of the other views a delivery id reached (their old alerts kept the id). */
async function fillPairs(db: Kysely<any>, deliveryTime: string): Promise<void> {
  const columns = 'delivery_id, view_id, view_name, event_id, development_id, event_timestamp, received_at';
  await sql
    .raw(
      `insert into alert_deliveries (${columns})
select w.id, w.view_id, w.view_name, w.event_id, w.development_id, ${deliveryTime}, w.received_at from webhook_deliveries w`,
    )
    .execute(db);
  await sql
    .raw(
      `insert into alert_deliveries (${columns})
select o.delivery_id, o.view_id, o.view_name, o.event_id, coalesce(o.development_id, ''), o.matched_at, o.first_seen_at
from alert_history_0037 o
where o.delivery_id is not null
  and not exists (select 1 from alert_deliveries p where p.delivery_id = o.delivery_id and p.view_id = o.view_id)`,
    )
    .execute(db);
}

async function createAlertHistory(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('alert_history')
    .addColumn('view_id', t.text, (c) => c.notNull())
    .addColumn('event_id', t.text, (c) => c.notNull())
    // '' when the match named no development (a backfilled event that listed none): a key cannot be null.
    .addColumn('development_id', t.text, (c) => c.notNull())
    .addColumn('view_name', t.text)
    .addColumn('matched_at', t.timestamp)
    .addColumn('first_seen_at', t.timestamp, (c) => c.notNull())
    .addColumn('source', t.text, (c) => c.notNull().check(sql`source in ('webhook', 'backfill')`))
    .addColumn('webhook_at', t.timestamp)
    .addColumn('backfill_at', t.timestamp)
    // Not the old table's constraint name: PostgreSQL names its index so, and both tables exist a while.
    .addPrimaryKeyConstraint('alert_history_key', ['view_id', 'event_id', 'development_id'])
    .execute();
  await db.schema.createIndex('alert_history_matched_at').on('alert_history').column('matched_at').execute();
}

async function createAlertDeliveries(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('alert_deliveries')
    .addColumn('delivery_id', t.text, (c) => c.notNull())
    .addColumn('view_id', t.text, (c) => c.notNull())
    .addColumn('view_name', t.text)
    .addColumn('event_id', t.text, (c) => c.notNull())
    .addColumn('development_id', t.text, (c) => c.notNull())
    .addColumn('event_timestamp', t.timestamp)
    .addColumn('received_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('alert_deliveries_key', ['delivery_id', 'view_id'])
    .execute();
  // An alert's deliveries (v_alerts), and whether a webhook named a development (the details backlog).
  await db.schema.createIndex('alert_deliveries_development').on('alert_deliveries').columns(['development_id', 'view_id']).execute();
}
