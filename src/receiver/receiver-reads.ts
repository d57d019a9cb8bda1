// What the rooms above read of the receiver's tables (the status page's alerts, `status`'s and /metrics'
// deliveries, `views`' alerts per view): the receiver owns the tables, so it owns their queries too, typed
// by its own tables (receiver-tables.ts). Plain Kysely, both dialects.
import { sql, type Kysely } from 'kysely';
import type { Store } from '../store/index.js';
import type { ReceiverTables } from './receiver-tables.js';

const tables = (store: Store) => store.db as Kysely<ReceiverTables>;

/** PostgreSQL may hand back a Date where SQLite gives ISO text. */
function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value.toISOString() : String(value);
}

export interface DeliveryTotals {
  received: number;
  lastReceivedAt: string | null;
}

/** Deliveries received, and the last one's time. */
export async function deliveryTotals(store: Store): Promise<DeliveryTotals> {
  const row = (await tables(store)
    .selectFrom('webhook_deliveries')
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.max('received_at').as('last')])
    .executeTakeFirst()) as { n: number | string; last: string | Date | null } | undefined;
  return { received: Number(row?.n ?? 0), lastReceivedAt: iso(row?.last) };
}

export interface AlertRow {
  viewId: string;
  viewName: string | null;
  at: string;
  webhook: boolean;
  backfill: boolean;
}

/** The alerts matched (or, without a match time, first seen) since `since`. */
export async function alertsSince(store: Store, since: string): Promise<AlertRow[]> {
  const at = sql<string>`coalesce(matched_at, first_seen_at)`;
  const rows = await tables(store)
    .selectFrom('alert_history')
    .select(['view_id', 'view_name', at.as('at'), 'webhook_at', 'backfill_at'])
    .where(at, '>=', since)
    .execute();
  return rows.map((r) => ({
    viewId: String(r.view_id),
    viewName: r.view_name ?? null,
    at: iso(r.at)!,
    webhook: r.webhook_at !== null,
    backfill: r.backfill_at !== null,
  }));
}

/** The alerts kept per view id (every source: webhooks, backfills, syncs). */
export async function alertsPerView(store: Store): Promise<ReadonlyMap<string, number>> {
  const rows = (await tables(store)
    .selectFrom('alert_history')
    .select((eb) => ['view_id', eb.fn.countAll().as('n')])
    .groupBy('view_id')
    .execute()) as { view_id: string; n: number | string }[];
  return new Map(rows.map((r) => [String(r.view_id), Number(r.n)]));
}
