// One accepted delivery becomes a row in each of four tables: the append-only delivery log (one row per
// delivery id), the (delivery, view) pair it carried, the alert history the backfill also fills (one row
// per view and development), and the development the sync will complete later.
import { contentHash } from '../content-hash.js';
import type { Row } from '../store/types.js';
import type { Envelope } from './parse-envelope.js';

export interface AcceptedDelivery {
  /** With loss-free coercions taken; null for a delivery set aside (`setAside`). */
  envelope: Envelope | null;
  /** The body exactly as received (decoded UTF-8, byte for byte). */
  body: string;
  signed: boolean;
  receivedAt: string;
  /** Its changes of shape, as `schema_changes` rows (delivery-changes.ts); usually none. */
  changes: readonly Row[];
  /** A signed delivery the receiver cannot read as an alert: its `webhook_set_aside` row; else null. */
  setAside: Row | null;
  /** Whether `envelope` differs from the body (a coercion was taken): the body alone no longer gives it. */
  coerced: boolean;
}

/** A delivery the receiver reads as an alert. */
export type ReadDelivery = Pick<AcceptedDelivery, 'body' | 'signed' | 'receivedAt'> & { envelope: Envelope };

export interface DeliveryRows {
  delivery: Row;
  pair: Row;
  alert: Row;
  development: Row;
}

export function deliveryRows(d: ReadDelivery): DeliveryRows {
  return { delivery: deliveryRow(d), pair: pairRow(d), alert: alertRow(d), development: developmentRow(d) };
}

/** The delivery as received: its ids, whether it was signed, and the body byte for byte. */
function deliveryRow(d: ReadDelivery): Row {
  const { envelope: e } = d;
  return {
    id: e.id,
    view_id: e.data.view.id,
    view_name: e.data.view.name,
    event_id: e.data.event.id,
    development_id: e.data.latest_development.id,
    type: e.type,
    event_timestamp: e.timestamp,
    signed: d.signed,
    body: d.body,
    received_at: d.receivedAt,
  };
}

/** The delivery as it reached this view: the service sends one id to every view the development matches. */
function pairRow({ envelope: e, receivedAt }: ReadDelivery): Row {
  return {
    delivery_id: e.id,
    view_id: e.data.view.id,
    view_name: e.data.view.name,
    event_id: e.data.event.id,
    development_id: e.data.latest_development.id,
    event_timestamp: isoTime(e.timestamp),
    received_at: receivedAt,
    // Said, not left to the column's default: a set-aside pair says its own state.
    state: 'read',
  };
}

/** The view's match of the development, as the backfill would record it. */
function alertRow({ envelope: e, receivedAt }: ReadDelivery): Row {
  return {
    view_id: e.data.view.id,
    event_id: e.data.event.id,
    development_id: e.data.latest_development.id,
    // The view's name, even for views not configured, and when the match happened (the delivery's timestamp).
    view_name: e.data.view.name,
    matched_at: isoTime(e.timestamp),
    first_seen_at: receivedAt,
    source: 'webhook',
    webhook_at: receivedAt,
    backfill_at: null,
  };
}

function developmentRow({ envelope: e, receivedAt }: ReadDelivery): Row {
  const dev = e.data.latest_development;
  const devJson = JSON.stringify(dev);
  // The webhook carries a subset of the detail: detail_fetched_at stays null so the next sync fetches
  // the rest; fields the webhook does not carry stay null rather than guessed.
  return {
    id: dev.id,
    event_id: e.data.event.id,
    title: dev.title,
    summary: dev.summary,
    industry: null,
    importance: dev.importance ?? null,
    verified: null,
    actionable: dev.actionable,
    governance: null,
    intel_categories: dev.category ?? [],
    intel_subcategories: dev.subcategory ?? [],
    documents: null,
    assets: null,
    started_at: isoTime(dev.started_at),
    ended_at: dev.ended_at ?? null,
    created_at: isoTime(dev.created_at),
    updated_at: null,
    detail_fetched_at: null,
    // Already JSON text (both dialects store a string as it is), serialised once for raw and hash.
    raw: devJson,
    row_hash: contentHash(devJson),
    first_seen_at: receivedAt,
    synced_at: receivedAt,
    deleted_at: null,
  };
}

/** A time as the mirror writes every time (ISO 8601 UTC with milliseconds), so it joins the synced ones on SQLite. */
function isoTime(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : new Date(ms).toISOString();
}
