// The tables sync keeps beside the mirrored ones, as Kysely sees them (Kysely<SyncTables>): what a pass
// remembers (pass marks, page and fan-out hashes, the service held), the history of changed rows, and
// the service's shape as the passes saw it.
import type { Generated } from 'kysely';
import type { StoredBoolean } from '../store/index.js';

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

/** Sync's own tables (schema/migrations/0005, 0013, 0017, 0039, 0065 and later columns). */
export interface SyncTables {
  pass_marks: PassMarksTable;
  mirrored_service: MirroredServiceTable;
  page_hashes: PageHashesTable;
  fanout_parents: FanoutParentsTable;
  row_history: RowHistoryTable;
  history_settings: HistorySettingsTable;
  schema_fields: SchemaFieldsTable;
  schema_changes: SchemaChangesTable;
}
