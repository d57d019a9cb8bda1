// Webhook deliveries (append-only, one row per delivery id) and the alert history that the
// receiver and the backfill both fill, keyed by (view, event) so the two sources agree.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../../src/store/types.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', t.text, (c) => c.primaryKey())
    .addColumn('view_id', t.text, (c) => c.notNull())
    .addColumn('view_name', t.text, (c) => c.notNull())
    .addColumn('event_id', t.text, (c) => c.notNull())
    .addColumn('development_id', t.text, (c) => c.notNull())
    .addColumn('type', t.text, (c) => c.notNull())
    .addColumn('event_timestamp', t.timestamp, (c) => c.notNull())
    .addColumn('signed', t.boolean, (c) => c.notNull())
    // The body exactly as received, as text: jsonb would reorder keys and drop duplicates.
    .addColumn('body', t.text, (c) => c.notNull())
    .addColumn('received_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('alert_history')
    .addColumn('view_id', t.text, (c) => c.notNull())
    .addColumn('event_id', t.text, (c) => c.notNull())
    .addColumn('first_seen_at', t.timestamp, (c) => c.notNull())
    .addColumn('source', t.text, (c) => c.notNull().check(sql`source in ('webhook', 'backfill')`))
    .addColumn('delivery_id', t.text)
    .addColumn('development_id', t.text)
    .addPrimaryKeyConstraint('alert_history_pk', ['view_id', 'event_id'])
    .execute();
}
