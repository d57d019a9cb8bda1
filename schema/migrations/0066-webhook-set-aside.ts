// Webhook deliveries whose signature verifies but whose payload the receiver cannot read as an alert (a field
// it needs missing, or in a type it cannot take without loss): stored whole with the reason, acknowledged
// (nothing the service sent is lost), and completed when a later re-read of the view's events (the
// monitoring-views stream, `backfill alerts`) brings the alert they stood for. A retry of the same bytes adds none.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../src/store/types.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('webhook_set_aside')
    .addColumn('body_hash', t.text, (c) => c.primaryKey())
    // What of the delivery could be read (null where it could not): what links it to its alert.
    .addColumn('id', t.text)
    .addColumn('view_id', t.text)
    .addColumn('event_id', t.text)
    .addColumn('development_id', t.text)
    .addColumn('signed', t.boolean, (c) => c.notNull())
    .addColumn('reason', t.text, (c) => c.notNull())
    // The body exactly as received, as text (jsonb would reorder keys and drop duplicates).
    .addColumn('body', t.text, (c) => c.notNull())
    .addColumn('received_at', t.timestamp, (c) => c.notNull())
    .addColumn('completed_at', t.timestamp)
    .execute();
}
