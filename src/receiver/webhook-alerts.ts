// How a delivery's alert joins alert_history: a new (view, event, development) is inserted; one a
// backfill found first gains the webhook's arrival and its match time (the service's own), so it says
// both ways; one a webhook already brought (a retry, or another delivery id for it) is left as it is.
// The same rule twice: SQL text for the store's writer thread's prepared statement (delivery-task.ts), and
// Kysely for the store's transactions (store-writer.ts).
import { quoteIdent } from '../store/store-adapter.js';
import type { Row, StoreTx } from '../store/types.js';

export const ALERT_KEY = ['view_id', 'event_id', 'development_id'] as const;

/** Columns a webhook sets on an alert a backfill found first. */
const WEBHOOK_SETS = ['webhook_at', 'matched_at'] as const;

/** One row of `columns`, bound to `placeholders`. */
export function webhookAlertSql(columns: readonly string[], placeholders: readonly string[]): string {
  const sets = WEBHOOK_SETS.map((c) => `${quoteIdent(c)} = excluded.${quoteIdent(c)}`).join(', ');
  return (
    `insert into alert_history (${columns.map(quoteIdent).join(', ')}) values (${placeholders.join(', ')}) ` +
    `on conflict (${ALERT_KEY.map(quoteIdent).join(', ')}) do update set ${sets} where alert_history.webhook_at is null`
  );
}

/** Many rows in one statement; keys must be unique among `rows`. */
export async function mergeWebhookAlerts(db: StoreTx['db'], rows: readonly Row[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('alert_history')
    .values(rows as Row[])
    .onConflict((oc) =>
      oc
        .columns([...ALERT_KEY])
        .doUpdateSet((eb) => Object.fromEntries(WEBHOOK_SETS.map((c) => [c, eb.ref(`excluded.${c}`)])))
        .where('alert_history.webhook_at', 'is', null),
    )
    .execute();
}
