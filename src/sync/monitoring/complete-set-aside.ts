// A webhook delivery the receiver set aside (another shape: webhook_set_aside) stood for an alert it could not
// read; the views pass re-reads each view's events and writes their alerts. A delivery whose alert is now in
// alert_history (by its development, else its event, for its view when that could be read) is completed.
import { sql } from 'kysely';
import type { Store } from '../../store/types.js';

/** Marks the deliveries set aside whose alert the mirror now holds; returns how many. */
export async function completeSetAside(store: Store, now: string): Promise<number> {
  const result = await store.db
    .updateTable('webhook_set_aside')
    .set({ completed_at: now })
    .where('completed_at', 'is', null)
    .where(
      sql<boolean>`exists (select 1 from alert_history a
        where (webhook_set_aside.view_id is null or a.view_id = webhook_set_aside.view_id)
          and (a.development_id = webhook_set_aside.development_id
            or (webhook_set_aside.development_id is null and a.event_id = webhook_set_aside.event_id)))`,
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
