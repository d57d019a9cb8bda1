// The store's own tables as Kysely sees them (Kysely<Database>): the ones its own code reads and writes
// (runs, stream state, quarantine, leases, the repeatable objects' ledger). Values as both adapters read
// them back: integers as numbers, JSON and times as text (ISO UTC), booleans as SQLite's 0/1 or
// PostgreSQL's true/false. Each room types the tables it owns beside its code (budget/budget-tables.ts,
// receiver/receiver-tables.ts, ...), with the column types below; the mirrored tables are declared by
// the catalog: code that writes them by name goes through `MirrorTables`.
import type { ColumnType, Generated, Kysely } from 'kysely';

/** A boolean column: SQLite's 0/1, PostgreSQL's true/false. */
export type StoredBoolean = ColumnType<boolean | number, boolean | number, boolean | number>;
/** A column with a default: optional on insert. */
export type Counter = ColumnType<number, number | undefined, number>;

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

export interface SchemaObjectsTable {
  name: string;
  definition_hash: string;
  applied_at: string;
}

/** The store's own tables (schema/migrations/0001, 0030 and later columns). */
export interface Database {
  sync_runs: SyncRunsTable;
  sync_run_streams: SyncRunStreamsTable;
  stream_state: StreamStateTable;
  quarantine: QuarantineTable;
  leases: LeasesTable;
  schema_objects: SchemaObjectsTable;
}

/** Any mirrored table by name (the catalog declares them): columns by name, values as the driver binds them. */
export type MirrorTables = Record<string, Record<string, unknown>>;

/** The same connection, for statements on a table named at run time (a mirrored table, a view). */
export function mirrorTables(db: Kysely<Database>): Kysely<MirrorTables> {
  return db as unknown as Kysely<MirrorTables>;
}
