// The engine's own tables as Kysely sees them (Kysely<Database>), values as both adapters read them
// back: integers as numbers, JSON and times as text (ISO UTC), booleans as SQLite's 0/1 or
// PostgreSQL's true/false. The mirrored tables are declared by the catalog, not here: code that
// writes them by name goes through `MirrorTables`.
import type { ColumnType, Generated, Kysely } from 'kysely';

type StoredBoolean = ColumnType<boolean | number, boolean | number, boolean | number>;
/** A column with a default: optional on insert. */
type Counter = ColumnType<number, number | undefined, number>;

export interface SyncRunsTable {
  id: Generated<number>;
  started_at: string;
  finished_at: string | null;
  mode: string;
  streams: string;
  outcome: string | null;
  job: string | null;
  owner: string | null;
}

export interface SyncRunStreamsTable {
  run_id: number;
  stream: string;
  fetched: Counter;
  inserted: Counter;
  updated: Counter;
  unchanged: Counter;
  deleted: Counter;
  errors: Counter;
  requests: Counter;
  details: Counter;
  duration_ms: Counter;
  outcome: string;
  error: string | null;
  /** The failure's stable code (`DS_DRIFT`), when it has one (0067). */
  error_code: string | null;
  notice: string | null;
}

export interface StreamStateTable {
  stream: string;
  checkpoint: string | null;
  last_success_at: string | null;
  last_error: string | null;
  last_error_code: string | null;
  last_notice: string | null;
  last_run_id: number | null;
  updated_at: string;
}

/** When a stream's part (a view, the events' full pass) last completed a full pass (0017). */
export interface PassMarksTable {
  stream: string;
  part: string;
  full_pass_at: string | null;
  high_water: string | null;
  updated_at: string;
  /** Rows the list held at its last complete pass (views' match lists); null when unknown. */
  list_rows: number | null;
}

/** The one service this mirror holds (0017). */
export interface MirroredServiceTable {
  base_url: string;
  claimed_at: string;
}

export interface QuarantineTable {
  id: Generated<number>;
  stream: string;
  reason: string;
  record: string | null;
  seen_at: string;
}

export interface LeasesTable {
  name: string;
  owner: string;
  expires_at: string;
}

export interface PageHashesTable {
  stream: string;
  variant: string;
  page: number;
  request: string;
  body_hash: string;
  records: number;
  keys: string;
  synced_at: string;
}

export interface FanoutParentsTable {
  stream: string;
  parent_key: string;
  row_hash: string;
  rows: number;
  synced_at: string;
}

export interface UsageLedgerTable {
  family: string;
  day: string;
  requests: Counter;
}

export interface UsageMonthsTable {
  family: string;
  /** YYYY-MM, UTC. */
  month: string;
  requests: Counter;
}

export interface QuotaHoldsTable {
  family: string;
  until: string;
  reason: string;
  set_at: string;
}

export interface UsageQuotasTable {
  family: string;
  day: string;
  per_day: number | null;
  per_month: number | null;
  /** 0046 */
  per_minute: number | null;
  set_at: string;
}

export interface SchemaObjectsTable {
  name: string;
  definition_hash: string;
  applied_at: string;
}

export interface PaceSlotsTable {
  family: string;
  next_at: string;
}

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

export interface RowHistoryTable {
  id: Generated<number>;
  table_name: string;
  row_key: string;
  raw: string;
  /** The previous version's own columns as JSON (migration 0039); null before it and where the views lift from raw. */
  typed_row: string | null;
  row_hash: string;
  first_seen_at: string;
  valid_from: string;
  valid_to: string;
  change: 'updated' | 'deleted';
  run_id: number | null;
  ended_by_run_id: number | null;
}

export interface HistorySettingsTable {
  table_name: string;
  enabled: StoredBoolean;
  retention_days: number | null;
}

/** The catalog's streams as the last sync knew them (0045). */
export interface CatalogStreamsTable {
  stream: string;
  table_name: string;
  kind: string;
  opt_in: StoredBoolean;
  description: string;
  live_rows: number | null;
  counted_at: string | null;
  recorded_at: string;
}

/** The jobs as last configured by the daemon or `ds-mirror jobs` (0045). */
export interface ScheduledJobsTable {
  job: string;
  description: string;
  schedule: string;
  time_zone: string | null;
  mode: string;
  enabled: StoredBoolean;
  streams: string;
  interval_seconds: number;
  stale_after_seconds: number;
  recorded_at: string;
}

/** Per stream, the enabled jobs that keep it (0045). */
export interface StreamSchedulesTable {
  stream: string;
  jobs: string;
  schedules: string;
  interval_seconds: number;
  stale_after_seconds: number;
  recorded_at: string;
}

/** Each stream's known shape: every field path with the JSON types it came in (0065). */
export interface SchemaFieldsTable {
  stream: string;
  path: string;
  /** The JSON types seen, `|`-separated in a fixed order (`number`, `number|string`). */
  json_types: string;
  /** Share of the last pass's records that carried it (not null). */
  share: number;
  first_seen_at: string;
  last_seen_at: string;
}

/** One change of the service's shape, updated while it lasts (0065). */
export interface SchemaChangesTable {
  stream: string;
  path: string;
  /** `new`, `missing` or `other type`. */
  kind: string;
  /** The JSON type the field came in ('' when missing). */
  seen_type: string;
  /** The JSON type(s) the mirror knew ('' for a new field). */
  expected_type: string;
  /** What the mirror did: reported, coerced, quarantined, failed, held or accepted. */
  outcome: string;
  records: number;
  share: number;
  example: string | null;
  first_seen_at: string;
  last_seen_at: string;
}

/** The engine's bookkeeping tables (schema/migrations/0001, 0004, 0005, 0009, 0013, 0017, 0038 and later columns). */
export interface Database {
  sync_runs: SyncRunsTable;
  sync_run_streams: SyncRunStreamsTable;
  stream_state: StreamStateTable;
  pass_marks: PassMarksTable;
  mirrored_service: MirroredServiceTable;
  quarantine: QuarantineTable;
  leases: LeasesTable;
  page_hashes: PageHashesTable;
  fanout_parents: FanoutParentsTable;
  usage_ledger: UsageLedgerTable;
  usage_months: UsageMonthsTable;
  quota_holds: QuotaHoldsTable;
  pace_slots: PaceSlotsTable;
  schema_objects: SchemaObjectsTable;
  usage_quotas: UsageQuotasTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_set_aside: WebhookSetAsideTable;
  alert_history: AlertHistoryTable;
  alert_deliveries: AlertDeliveriesTable;
  row_history: RowHistoryTable;
  history_settings: HistorySettingsTable;
  catalog_streams: CatalogStreamsTable;
  scheduled_jobs: ScheduledJobsTable;
  stream_schedules: StreamSchedulesTable;
  schema_fields: SchemaFieldsTable;
  schema_changes: SchemaChangesTable;
}

/** Any mirrored table by name (the catalog declares them): columns by name, values as the driver binds them. */
export type MirrorTables = Record<string, Record<string, unknown>>;

/** The same connection, for statements on a table named at run time (a mirrored table, a view). */
export function mirrorTables(db: Kysely<Database>): Kysely<MirrorTables> {
  return db as unknown as Kysely<MirrorTables>;
}
