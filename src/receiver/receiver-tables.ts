// The receiver's tables as Kysely sees them (Kysely<ReceiverTables>): the delivery log, the deliveries set
// aside, the (delivery, view) pairs, and the alert history that the backfill fills too.
import type { Generated } from 'kysely';
import type { StoredBoolean } from '../store/index.js';

export interface WebhookDeliveriesTable {
  id: string;
  view_id: string;
  view_name: string;
  event_id: string;
  development_id: string;
  type: string;
  event_timestamp: string;
  signed: StoredBoolean;
  body: string;
  received_at: string;
}

/** A signed delivery the receiver could not read as an alert, stored whole with why (0066). */
export interface WebhookSetAsideTable {
  body_hash: string;
  id: string | null;
  view_id: string | null;
  event_id: string | null;
  development_id: string | null;
  signed: StoredBoolean;
  reason: string;
  body: string;
  received_at: string;
  completed_at: string | null;
}

export interface AlertHistoryTable {
  view_id: string;
  event_id: string;
  /** '' when the match named no development. */
  development_id: string;
  view_name: string | null;
  matched_at: string | null;
  first_seen_at: string;
  /** How the alert first arrived. */
  source: 'webhook' | 'backfill';
  webhook_at: string | null;
  backfill_at: string | null;
  /** When a backfill first found it by the view's own predicates; null if none has. */
  reconstructed_at: string | null;
  /** The view's predicates that reconstruction could not test, comma-separated ('' none); null if not reconstructed. */
  unchecked_predicates: string | null;
}

export interface AlertDeliveriesTable {
  delivery_id: string;
  view_id: string;
  view_name: string | null;
  event_id: string;
  development_id: string;
  event_timestamp: string | null;
  received_at: string;
  /** 'read', or 'set aside': its payload came in another shape (webhook_set_aside). */
  state: Generated<string>;
}

/** The receiver's tables (schema/migrations/0004, 0038, 0066 and later columns). */
export interface ReceiverTables {
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_set_aside: WebhookSetAsideTable;
  alert_history: AlertHistoryTable;
  alert_deliveries: AlertDeliveriesTable;
}
