// What the receiver writes of a delivery's change of shape: one `schema_changes` row per change (stream
// webhook-deliveries), as a pass writes its own, where the receiver's run is the pass: `records` counts the
// deliveries since it started that showed the change, `share` their share of every delivery since then. And
// the row of a delivery set aside whole (`webhook_set_aside`): what of it could be read, and why.
import { contentHash } from '../content-hash.js';
import type { Row } from '../store/types.js';
import { DELIVERY_STREAM, type DeliveryChange } from './delivery-shape.js';

/** The changes' conflict key, as migration 0065 made it. */
export const CHANGE_KEY = ['stream', 'path', 'kind', 'seen_type'];
/** Columns a change seen again updates. */
export const CHANGE_UPDATES = ['outcome', 'records', 'share', 'last_seen_at'];

export class ShapeTally {
  private deliveries = 0;
  private readonly counts = new Map<string, number>();

  /** Counts one delivery; returns its changes as rows (none for a delivery of the expected shape). */
  rows(changes: readonly DeliveryChange[], setAside: boolean, now: string): Row[] {
    this.deliveries++;
    return changes.map((c) => {
      const key = `${c.path}\u0000${c.kind}\u0000${c.seen}`;
      const records = (this.counts.get(key) ?? 0) + 1;
      this.counts.set(key, records);
      return {
        stream: DELIVERY_STREAM,
        path: c.path,
        kind: c.kind,
        seen_type: c.seen,
        expected_type: c.expected,
        outcome: c.coerced ? 'coerced' : setAside && c.kind !== 'new' ? 'set aside' : 'reported',
        records,
        share: records / this.deliveries,
        example: c.example,
        first_seen_at: now,
        last_seen_at: now,
      };
    });
  }
}

const IDS = {
  id: ['id'],
  view_id: ['data', 'view', 'id'],
  event_id: ['data', 'event', 'id'],
  development_id: ['data', 'latest_development', 'id'],
};

/** The row of a signed delivery the receiver could not read as an alert: stored whole, with what could be read and why. */
export function setAsideRow(
  json: unknown,
  body: string,
  signed: boolean,
  receivedAt: string,
  changes: readonly DeliveryChange[],
  detail: string,
): Row {
  const ids = Object.fromEntries(Object.entries(IDS).map(([column, path]) => [column, textAt(json, path)]));
  return {
    body_hash: contentHash(body),
    ...ids,
    signed,
    reason: reasonOf(changes, detail),
    body,
    received_at: receivedAt,
    completed_at: null,
  };
}

/**
 * The (delivery, view) pair of a delivery set aside: the service sent it, so it is counted with the others
 * (alert_deliveries.state 'set aside'). An event or development it lacked is '' (as alert_history writes an
 * absent development); a delivery or view that could not be read is named `body:<its body's hash>`
 * (webhook_set_aside.body_hash).
 */
export function setAsidePair(setAside: Row): Row {
  return {
    delivery_id: setAside.id ?? `body:${setAside.body_hash}`,
    // The view it reached, unread, is the body's: two views sent the same id stay two pairs, a retry none.
    view_id: setAside.view_id ?? `body:${setAside.body_hash}`,
    view_name: null,
    event_id: setAside.event_id ?? '',
    development_id: setAside.development_id ?? '',
    event_timestamp: null,
    received_at: setAside.received_at,
    state: 'set aside',
  };
}

function reasonOf(changes: readonly DeliveryChange[], detail: string): string {
  const said = changes
    .filter((c) => !c.coerced && c.kind !== 'new')
    .slice(0, 4)
    .map((c) =>
      c.kind === 'missing' ? `${c.path} missing` : `${c.path} came as ${c.seen} ${c.example ?? ''} where the receiver needs ${c.expected}`,
    );
  return said.length > 0 ? said.join('; ') : detail;
}

function textAt(json: unknown, path: readonly string[]): string | null {
  let value = json;
  for (const part of path) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
    value = (value as Record<string, unknown>)[part];
  }
  return typeof value === 'string' && value.length <= 200 ? value : null;
}
