// v_alerts_per_day is a table kept by triggers: what it holds must be what counting v_alerts gives,
// after whatever wrote the alerts (webhooks, backfills).
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Store } from '../../src/store/index.js';

const KEY = 'matched_on, view_id, view_name, view_label, source, known_by';

type Bucket = Record<string, unknown>;
const normal = (rows: readonly Bucket[]) =>
  rows
    .map((r) => ({
      ...r,
      matched_on: String(r.matched_on instanceof Date ? r.matched_on.toISOString() : r.matched_on).slice(0, 10),
      alerts: Number(r.alerts),
    }))
    .map((r) => JSON.stringify(r))
    .sort();

/** Asserts the per-day counts equal a count of v_alerts, and that there are some; returns how many alerts. */
export async function expectAlertDaysCurrent(store: Store): Promise<number> {
  const counted = await sql<Bucket>`select ${sql.raw(KEY)}, count(*) as alerts from v_alerts group by ${sql.raw(KEY)}`.execute(store.db);
  const kept = await sql<Bucket>`select ${sql.raw(KEY)}, alerts from v_alerts_per_day`.execute(store.db);
  expect(counted.rows.length).toBeGreaterThan(0);
  expect(normal(kept.rows)).toEqual(normal(counted.rows));
  return counted.rows.reduce((n, r) => n + Number(r.alerts), 0);
}
