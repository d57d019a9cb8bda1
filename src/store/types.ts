// The store's contract: what the sync engine, the receiver and the scheduler may ask of a database.
// One implementation serves both dialects; only the adapter (sqlite-adapter.ts / postgres-adapter.ts)
// knows which one it is talking to.
import type { ColumnDataType, Kysely, RawBuilder } from 'kysely';
import type { Database } from './database.js';
import type { Committed, DurableWriter, RowsWrite } from './durable-writes.js';

export type { Committed, DurableWriter, RowsWrite } from './durable-writes.js';

export type Dialect = 'sqlite' | 'postgres';

/** A row as the engine builds it: column name to a JS value (number, string, boolean, null, object). */
export type Row = Record<string, unknown>;

/** Counts of one write, summed into a stream's run record. */
export interface WriteCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

/** Column type names a migration asks for; each adapter maps them to its dialect's types (<dialect>-adapter.ts). */
export interface ColumnTypes {
  text: ColumnDataType;
  integer: ColumnDataType;
  bigint: ColumnDataType;
  double: ColumnDataType;
  boolean: ColumnDataType;
  json: ColumnDataType;
  timestamp: ColumnDataType;
  /** An auto-assigned integer primary key; add `.primaryKey()`. */
  serial: ColumnDataType;
}

/** Counts of one upsert; `rejected` rows were refused by the store and quarantined (not in the other counts). */
export interface UpsertCounts extends WriteCounts {
  rejected: number;
}

export interface StoreTx {
  /**
   * Writes the rows that are new, changed (their `row_hash` differs from the stored one) or
   * come back after a soft delete; leaves the others untouched (no write at all).
   * Every row carries all of the table's mirrored columns plus `row_hash` and `raw`.
   * `first_seen_at` is set on insert and kept on update; `synced_at` = now on every write;
   * `deleted_at` is cleared on every write.
   * A row whose values the store refuses (type, NUL, size) goes to quarantine under `stream` (default:
   * the table) with the reason, and the other rows are written.
   */
  upsertChanged(table: string, key: readonly string[], rows: readonly Row[], now: string, stream?: string): Promise<UpsertCounts>;
  /** Atomically replaces the child rows of one parent (e.g. a chart's data rows). Returns rows written. */
  replaceChildren(table: string, parent: Row, rows: readonly Row[]): Promise<number>;
  /** Plain multi-row insert that ignores rows whose key already exists; returns rows inserted. */
  insertIgnore(table: string, key: readonly string[], rows: readonly Row[]): Promise<number>;
  /** Writes each as its RowsWrite says, in order; returns the rows written by the `counted` ones. */
  writeRows(writes: readonly RowsWrite[]): Promise<number>;
  /** Saves a stream's checkpoint in the same transaction as the page it follows. */
  saveCheckpoint(stream: string, checkpoint: unknown): Promise<void>;
  quarantine(stream: string, reason: string, record: unknown, now: string): Promise<void>;
  /** The page's transaction, for statements of the caller's own (any table: see Store.db). */
  readonly db: Kysely<any>;
}

export interface StreamState {
  stream: string;
  checkpoint: unknown | null; // null when the last pass completed
  lastSuccessAt: string | null;
  lastError: string | null;
  /** The last error's stable code (`DS_DRIFT`: the service changed shape), when it had one. */
  lastErrorCode: string | null;
  /** What the last run said that is not an error (deletions held back, future-dated records). */
  lastNotice: string | null;
  lastRunId: number | null;
}

export interface StreamRunStats {
  stream: string;
  fetched: number;
  inserted: number;
  updated: number;
  unchanged: number;
  deleted: number;
  errors: number;
  requests: number;
  /** Per-item detail records fetched (monitoring development details), apart from the list's records. */
  details?: number;
  durationMs: number;
  /** `skipped`: another worker held the stream's lease, so this run left it to that worker. */
  outcome: 'success' | 'partial' | 'skipped' | 'stopped' | 'failed';
  error?: string | null;
  /** The failure's stable code (`DS_DRIFT`: the service changed shape), when it has one. */
  errorCode?: string | null;
  /** Fan-out parents the service has no record for (404: an asset without a rating): normal, not an error. */
  absent?: number;
  /** Something a person should know that is not an error (e.g. --metric-projects matched nothing). */
  notice?: string | null;
  /** Rows a complete pass was not served but kept live: deletions held back for evidence (deletion-gate.ts). */
  held?: number;
  /** Rows kept as they were because their records lack a field they hold (src/sync/shape/): a field's emptying held back. */
  heldRows?: number;
}

export interface Lease {
  readonly name: string;
  /** Extends the lease; false when it was lost (expired and taken by another owner). */
  renew(): Promise<boolean>;
  release(): Promise<void>;
}

/** A run as sync_runs keeps it. */
export interface RunRecord {
  id: number;
  startedAt: string;
  finishedAt: string | null;
  outcome: string | null;
}

export interface LeaseHolder {
  owner: string;
  expiresAt: string;
}

export interface Store {
  readonly dialect: Dialect;
  /** Everything that differs between the dialects: ask it rather than test `dialect`. */
  readonly adapter: StoreAdapter;
  /** Where the data lives (file path, or URL without password): named in storage error messages. */
  readonly location: string;
  /**
   * The connection for statements of the caller's own. Untyped on purpose: it reaches the mirrored
   * tables, which the catalog declares at run time; the engine's own tables are typed in database.ts
   * (`Database`), and the store's code uses that.
   */
  readonly db: Kysely<any>;
  /** Applies pending migrations from schema/migrations; never throws, returns per-migration results. */
  migrate(): Promise<{ results: { name: string; status: 'Success' | 'Error' | 'NotExecuted' }[]; error?: unknown }>;
  /** `durable`: the commit survives power loss, not only a crash (SQLite: fsync at commit). */
  transaction<T>(fn: (tx: StoreTx) => Promise<T>, opts?: { durable?: boolean }): Promise<T>;
  /**
   * A writer of durable commits that keeps the caller's event loop free: the adapter's writer thread
   * where it has one (SQLite on disk), else one durable transaction at a time.
   */
  openDurableWriter(): Promise<DurableWriter>;

  /** Soft-deletes rows of `table` (within `scope`, e.g. {asset_class: 'token'}) whose key is not in `seen`. */
  /** `seen` holds `keyString(values)` of every key served in the pass. */
  softDeleteMissing(table: string, key: readonly string[], seen: ReadonlySet<string>, scope: Row, now: string): Promise<number>;

  getState(stream: string): Promise<StreamState | null>;
  /** Records the end of a stream's pass at `now` (the run's clock, as its start and end): its counts, and success
   *  or error; the checkpoint stays what the last page's transaction saved (StoreTx.saveCheckpoint). */
  finishStream(runId: number, stats: StreamRunStats, now: string): Promise<void>;

  /** `job`: the scheduled job that started the run, if any; `owner`: the process running it (host:pid:random). */
  startRun(streams: readonly string[], mode: 'full' | 'incremental', now: string, job?: string, owner?: string): Promise<number>;
  /**
   * Closes the runs left open by a process that died: outcome `interrupted`, finished now, and an
   * `interrupted` row for each of their streams that never finished (the finished ones keep their counts).
   * A run is dead when `ownerDied(owner)` says so (same host, pid gone, or a run of this process that
   * ended without recording it), or when it started before
   * `staleBefore` and its owner holds no live lease. Returns the ids closed.
   */
  closeInterruptedRuns(now: string, staleBefore: string, ownerDied: (owner: string) => boolean): Promise<number[]>;
  finishRun(runId: number, outcome: StreamRunStats['outcome'], now: string): Promise<void>;

  /**
   * Takes a named lease (sync of one stream, the receiver's writer, ...) for `ttlMs`; null if held by
   * another live owner. An expired lease can be taken over, so a crashed worker never blocks forever.
   */
  acquireLease(name: string, owner: string, ttlMs: number): Promise<Lease | null>;
  /** acquireLease, or throws LeaseHeldError (DS_LEASE_HELD) naming the holder and what to do. */
  holdLease(name: string, owner: string, ttlMs: number): Promise<Lease>;
  /** Who holds a lease and until when (null when free or expired): for the "held by" message. */
  leaseHolder(name: string): Promise<LeaseHolder | null>;
  /** Every lease held now, by name. */
  liveLeases(): Promise<(LeaseHolder & { name: string })[]>;
  /** Ends the lease `owner` holds on `name` before it expires: an owner known to have died, so another may take it now. */
  breakLease(name: string, owner: string): Promise<void>;
  /** The last run a job started that has an outcome (of `outcomes`, when given): what a restarted daemon reports. */
  lastJobRun(job: string, outcomes?: readonly StreamRunStats['outcome'][]): Promise<RunRecord | null>;
  /** Answers once the database does (a statement that reads nothing): rejects when it cannot. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function keyString(values: readonly unknown[]): string {
  return values.length === 1 ? String(values[0]) : values.map((v) => String(v)).join('\u0000');
}

/** keyString of a row's key columns, without an array for a one-column key (a first sync takes 55,000 of them three times over). */
export function rowKey(row: Readonly<Record<string, unknown>>, key: readonly string[]): string {
  return key.length === 1 ? String(row[key[0]!]) : keyString(key.map((k) => row[k]));
}

/** How a value is stored; SQLite cannot tell a boolean from an integer, nor JSON or a time from text. */
export type ColumnKind = 'boolean' | 'json' | 'timestamp' | 'integer' | 'double' | 'text' | 'other';

export interface ColumnInfo {
  name: string;
  kind: ColumnKind;
  /** PostgreSQL only: the sequence behind a serial column, to move past copied ids. */
  sequence: string | null;
}

export interface TableInfo {
  name: string;
  columns: ColumnInfo[];
  /** Primary key columns in key order; empty when the table has none. */
  key: string[];
  /** The key's native (index) order is byte order: text keys under C/POSIX collation, or no text key. */
  keyByteOrdered: boolean;
  /** Tables this one references (copied before it, emptied after it). */
  parents: string[];
}

/** One page for `upsertPage`: keys unique, values already converted, in `columns` order (the row arrays are the adapter's to consume). */
export interface UpsertPage {
  table: string;
  key: readonly string[];
  columns: readonly string[];
  rows: readonly unknown[][];
  now: string;
}

/** A row of an UpsertPage the store refused: its index in `rows` and why. */
export interface RejectedRow {
  index: number;
  reason: string;
}

/**
 * The one place that knows the dialect (sqlite/sqlite-adapter.ts, postgres/postgres-adapter.ts): column
 * types, value conversion, statement sizes, the fastest page upsert, table introspection, batch reads,
 * durability switches and lease time. Capabilities, not a dialect name, are what callers ask for.
 */
export interface StoreAdapter {
  readonly dialect: Dialect;
  readonly db: Kysely<Database>;
  readonly columnTypes: ColumnTypes;
  /** Schema that holds our tables and the migrations table (PostgreSQL `--db-schema`). */
  readonly schema?: string;
  /** What a second process should do when a lease is held, for the error message. */
  readonly leaseHint: string;
  /** Whether the catalog tells booleans, JSON and times apart (PostgreSQL); SQLite declares them integer or text. */
  readonly knowsColumnKinds: boolean;
  /**
   * Runs a script of several statements in one call on the adapter's one connection, inside whatever
   * transaction it has open (SQLite): a new file's prepared schema, 193 statements, in one parse loop
   * rather than 193 queries. Absent where a pool has several connections (PostgreSQL).
   */
  script?(statements: string): void;
  /**
   * A writer thread with a connection of its own, where the driver blocks the event loop and a second
   * connection can open the database (SQLite on disk): the commit's fsync blocks that thread, not the
   * caller's. Absent elsewhere (Store.openDurableWriter then commits through the store's transactions).
   */
  writerThread?(): Promise<DurableWriter>;
  /** Rows one multi-row statement may carry at `paramsPerRow` bind parameters each, besides `fixedParams`. */
  rowsPerStatement(paramsPerRow: number, fixedParams?: number): number;
  /** A JS value as this driver binds it (booleans, objects, Dates). */
  toDb(value: unknown): unknown;
  /** A value read from either store, as this one stores a column of `kind` (`copy`). */
  toColumn(kind: ColumnKind): (value: unknown) => unknown;
  /**
   * Writes the new, changed and resurrected rows of a page; must run inside `trx`'s transaction. A row
   * whose values the store refuses is left out and returned in `rejected`: the rest of the page is written.
   */
  upsertPage(trx: Kysely<Database>, page: UpsertPage): Promise<{ inserted: number; updated: number; rejected: RejectedRow[] }>;
  /**
   * Runs `load`, the writes of a pass over `table`, with the table's indexes that a first load may build at
   * its end left out while the table is empty at its start (SQLite: sqlite/sqlite-first-load.ts). Absent
   * where a dialect keeps every index as rows come.
   */
  firstLoad?<T>(table: string, load: () => Promise<T>): Promise<T>;
  /** Every table of the store with its columns, key and parents, read from the database itself. */
  listTables(): Promise<TableInfo[]>;
  /**
   * Refreshes the planner's statistics of `tables` after a bulk load (PostgreSQL `ANALYZE`): autovacuum
   * analyzes a table again only after 50 changes plus 10% of it, so a small table filled by a copy can stay
   * estimated empty and a view's plan then repeat a count per row. Absent where the planner keeps none (SQLite
   * without `ANALYZE`, the mirror's choice: its views are planned without statistics).
   */
  analyzeTables?(tables: readonly string[]): Promise<void>;
  /** Every row of a table or view, a batch at a time, memory flat at any size. */
  readBatches(relation: string, batchRows: number): AsyncGenerator<Row[]>;
  /**
   * The mirror's own commits do not wait for an fsync (a crash loses at most the last pages, whose
   * checkpoints went with them, so they are fetched again); a transaction that acknowledges something
   * to the outside (a webhook delivery) must. SQLite switches the connection before and after such a
   * transaction (`durableCommits`, called outside transactions); PostgreSQL switches inside it
   * (`durableTransaction`, the transaction's first statement). Each is a no-op on the other dialect.
   */
  durableCommits(db: Kysely<Database>, on: boolean): Promise<void>;
  /** Bounds how long the transaction's statements wait for a lock held elsewhere (PostgreSQL; SQLite has its busy timeout). */
  boundLockWait?(trx: Kysely<Database>): Promise<void>;
  /** Where migrations and repeatable objects run, when their statements get a longer bound than others' (PostgreSQL). */
  migrationDb?: Kysely<Database>;
  durableTransaction(trx: Kysely<Database>): Promise<void>;
  /** The current time and now + ttl, as the lease table compares them. */
  leaseNow(): RawBuilder<string>;
  leaseExpiry(ttlMs: number): RawBuilder<string>;
  close(): Promise<void>;
}
