// The typed tables are written by hand beside the migrations, each room's beside its code (the store's own
// in src/store/database.ts): this fails when they and the migrations disagree, on either store. COLUMNS
// must name every column of every typed table (the type below refuses a missing or an extra one), and
// each table must hold exactly those columns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BudgetTables } from '../../src/budget/budget-tables.js';
import type { MirrorSchemaTables } from '../../src/mirror-schema/mirror-schema-tables.js';
import type { ReceiverTables } from '../../src/receiver/receiver-tables.js';
import type { SchedulerTables } from '../../src/scheduler/scheduler-tables.js';
import type { Database as StoreTables } from '../../src/store/database.js';
import type { SyncTables } from '../../src/sync/sync-tables.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

/** Every typed table of the mirror: the store's and each room's (test/structure/table-types.test.ts lists the rooms'). */
type Database = StoreTables & BudgetTables & MirrorSchemaTables & ReceiverTables & SchedulerTables & SyncTables;

const COLUMNS: { [T in keyof Database]: Record<keyof Database[T], true> } = {
  sync_runs: { id: true, started_at: true, finished_at: true, mode: true, streams: true, outcome: true, job: true, owner: true },
  sync_run_streams: {
    run_id: true,
    stream: true,
    fetched: true,
    inserted: true,
    updated: true,
    unchanged: true,
    deleted: true,
    errors: true,
    requests: true,
    details: true,
    duration_ms: true,
    outcome: true,
    error: true,
    error_code: true,
    notice: true,
  },
  stream_state: {
    stream: true,
    checkpoint: true,
    last_success_at: true,
    last_error: true,
    last_error_code: true,
    last_notice: true,
    last_run_id: true,
    updated_at: true,
  },
  pass_marks: { stream: true, part: true, full_pass_at: true, high_water: true, updated_at: true, list_rows: true },
  mirrored_service: { base_url: true, claimed_at: true },
  quarantine: { id: true, stream: true, reason: true, record: true, seen_at: true },
  leases: { name: true, owner: true, expires_at: true },
  page_hashes: { stream: true, variant: true, page: true, request: true, body_hash: true, records: true, keys: true, synced_at: true },
  fanout_parents: { stream: true, parent_key: true, row_hash: true, rows: true, synced_at: true },
  usage_ledger: { family: true, day: true, requests: true },
  usage_months: { family: true, month: true, requests: true },
  quota_holds: { family: true, until: true, reason: true, set_at: true },
  pace_slots: { family: true, next_at: true },
  schema_objects: { name: true, definition_hash: true, applied_at: true },
  usage_quotas: { family: true, day: true, per_day: true, per_month: true, per_minute: true, set_at: true },
  webhook_deliveries: {
    id: true,
    view_id: true,
    view_name: true,
    event_id: true,
    development_id: true,
    type: true,
    event_timestamp: true,
    signed: true,
    body: true,
    received_at: true,
  },
  webhook_set_aside: {
    body_hash: true,
    id: true,
    view_id: true,
    event_id: true,
    development_id: true,
    signed: true,
    reason: true,
    body: true,
    received_at: true,
    completed_at: true,
  },
  alert_history: {
    view_id: true,
    event_id: true,
    development_id: true,
    view_name: true,
    matched_at: true,
    first_seen_at: true,
    source: true,
    webhook_at: true,
    backfill_at: true,
    reconstructed_at: true,
    unchecked_predicates: true,
  },
  alert_deliveries: {
    delivery_id: true,
    view_id: true,
    view_name: true,
    event_id: true,
    development_id: true,
    event_timestamp: true,
    received_at: true,
    state: true,
  },
  catalog_streams: {
    stream: true,
    table_name: true,
    kind: true,
    opt_in: true,
    description: true,
    live_rows: true,
    counted_at: true,
    recorded_at: true,
  },
  scheduled_jobs: {
    job: true,
    description: true,
    schedule: true,
    time_zone: true,
    mode: true,
    enabled: true,
    streams: true,
    interval_seconds: true,
    stale_after_seconds: true,
    recorded_at: true,
  },
  stream_schedules: { stream: true, jobs: true, schedules: true, interval_seconds: true, stale_after_seconds: true, recorded_at: true },
  row_history: {
    id: true,
    table_name: true,
    row_key: true,
    raw: true,
    typed_row: true,
    row_hash: true,
    first_seen_at: true,
    valid_from: true,
    valid_to: true,
    change: true,
    run_id: true,
    ended_by_run_id: true,
  },
  history_settings: { table_name: true, enabled: true, retention_days: true },
  schema_fields: { stream: true, path: true, json_types: true, share: true, first_seen_at: true, last_seen_at: true },
  schema_changes: {
    stream: true,
    path: true,
    kind: true,
    seen_type: true,
    expected_type: true,
    outcome: true,
    records: true,
    share: true,
    example: true,
    first_seen_at: true,
    last_seen_at: true,
  },
};

for (const dialect of dialects) {
  describe(`typed tables (${dialect})`, () => {
    // One store for both cases: the first reads the tables' columns, the second writes a row of its own.
    let t: TestStore;
    beforeAll(async () => {
      t = await openTestStore(dialect);
    });
    afterAll(() => t?.cleanup());

    it('declares exactly the columns the migrations create, table by table', async () => {
      const tables = new Map((await t.store.adapter.listTables()).map((table) => [table.name, table.columns.map((c) => c.name).sort()]));
      for (const [table, columns] of Object.entries(COLUMNS)) {
        expect({ table, columns: tables.get(table) }).toEqual({ table, columns: Object.keys(columns).sort() });
      }
    });

    it('reads back what it writes through the typed connection', async () => {
      const db = t.store.adapter.db;
      const { id } = await db
        .insertInto('sync_runs')
        .values({
          started_at: '2026-01-02T03:04:05.000Z',
          mode: 'full',
          streams: '["assets"]',
          outcome: null,
          finished_at: null,
          job: null,
          owner: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const run = await db.selectFrom('sync_runs').select(['mode', 'streams']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(run).toEqual({ mode: 'full', streams: '["assets"]' });
    });
  });
}
