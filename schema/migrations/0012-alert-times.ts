// True alert times: when the match happened (the delivery's timestamp; for a backfill the development's
// or event's start) beside first_seen_at (when the mirror learned of it), and the view's name as the
// webhook gave it, so alerts of views that are not configured are named too. Rows already held are
// filled from what the mirror has: the delivery log, the developments and the events.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../../src/store/types.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('alert_history').addColumn('matched_at', t.timestamp).execute();
  await db.schema.alterTable('alert_history').addColumn('view_name', t.text).execute();
  await sql`
    update alert_history set
      matched_at = coalesce(
        (select w.event_timestamp from webhook_deliveries w where w.id = alert_history.delivery_id),
        (select d.started_at from monitoring_developments d where d.id = alert_history.development_id),
        (select e.started_at from monitoring_events e where e.id = alert_history.event_id)),
      view_name = coalesce(
        (select w.view_name from webhook_deliveries w where w.id = alert_history.delivery_id),
        (select v.name from monitoring_views v where v.id = alert_history.view_id))`.execute(db);
  await db.schema.createIndex('alert_history_matched_at').on('alert_history').column('matched_at').execute();
}
