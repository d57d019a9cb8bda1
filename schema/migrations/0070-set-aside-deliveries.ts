// A webhook delivery set aside (its payload of another shape: webhook_set_aside) was still sent by the service
// to a view: it gets its (delivery, view) pair in alert_deliveries too, so counting deliveries matches what
// the service sent. `state` tells them apart: 'read' (an alert the receiver read), 'set aside' (stored whole,
// its alert completed by the next re-read of its view). An event or development a set-aside delivery lacked
// is '' (as alert_history writes an absent development); a delivery id or view it lacked is `body:<body_hash>`.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('alert_deliveries')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('read'))
    .execute();
}
