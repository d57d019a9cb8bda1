// The store's contract: what the sync engine, the receiver and the scheduler may ask of a database.
// One implementation serves both dialects; only the adapter (sqlite-adapter.ts / postgres-adapter.ts)
// knows which one it is talking to.
import type { Kysely } from 'kysely';

export type Dialect = 'sqlite' | 'postgres';

/** A row as the engine builds it: column name to a JS value (number, string, boolean, null, object). */
export type Row = Record<string, unknown>;

/** Counts of one write, summed into a stream's run record. */
export interface WriteCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

/** Column type names a migration asks for; each adapter maps them to its dialect's types. */
export interface ColumnTypes {
  text: 'text';
  integer: 'integer' | 'bigint';
  bigint: 'integer' | 'bigint';
  double: 'real' | 'double precision';
  boolean: 'integer' | 'boolean';
  json: 'text' | 'jsonb';
  timestamp: 'text' | 'timestamptz';
  /** An auto-assigned integer primary key (`integer primary key` / `bigserial`); add `.primaryKey()`. */
  serial: 'integer' | 'bigserial';
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
  /** Saves a stream's checkpoint in the same transaction as the page it follows. */
  saveCheckpoint(stream: string, checkpoint: unknown): Promise<void>;
  quarantine(stream: string, reason: string, record: unknown, now: string): Promise<void>;
  readonly db: Kysely<any>;
}

export interface StreamState {
  stream: string;
  checkpoint: unknown | null;   // null when the last pass completed
  lastSuccessAt: string | null;
  lastError: string | null;
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
  /** Fan-out parents the service has no record for (404: an asset without a rating): normal, not an error. */
  absent?: number;
  /** Something a person should know that is not an error (e.g. --metric-projects matched nothing). */
  notice?: string | null;
}

export interface Lease {
  readonly name: string;
  /** Extends the lease; false when it was lost (expired and taken by another owner). */
  renew(): Promise<boolean>;
  release(): Promise<void>;
}

export interface LeaseHolder {
  owner: string;
  expiresAt: string;
}

export interface Store {
  readonly dialect: Dialect;
  /** Where the data lives (file path, or URL without password): named in storage error messages. */
  readonly location: string;
  readonly db: Kysely<any>;
  /** Applies pending migrations from schema/migrations; never throws, returns per-migration results. */
  migrate(): Promise<{ results: { name: string; status: 'Success' | 'Error' | 'NotExecuted' }[]; error?: unknown }>;
  /** `durable`: the commit survives power loss, not only a crash (SQLite: fsync at commit). */
  transaction<T>(fn: (tx: StoreTx) => Promise<T>, opts?: { durable?: boolean }): Promise<T>;

  /** Soft-deletes rows of `table` (within `scope`, e.g. {asset_class: 'token'}) whose key is not in `seen`. */
  /** `seen` holds `keyString(values)` of every key served in the pass. */
  softDeleteMissing(table: string, key: readonly string[], seen: ReadonlySet<string>, scope: Row, now: string): Promise<number>;

  getState(stream: string): Promise<StreamState | null>;
  /** Records the end of a stream's pass: its counts, and success or error; the checkpoint stays what the last page's
   *  transaction saved (StoreTx.saveCheckpoint). */
  finishStream(runId: number, stats: StreamRunStats): Promise<void>;

  /** `job`: the scheduled job that started the run, if any; `owner`: the process running it (host:pid:random). */
  startRun(streams: readonly string[], mode: 'full' | 'incremental', now: string, job?: string, owner?: string): Promise<number>;
  /**
   * Closes the runs left open by a process that died: outcome `interrupted`, finished now, and an
   * `interrupted` row for each of their streams that never finished (the finished ones keep their counts).
   * A run is dead when `ownerDied(owner)` says so (same host, pid gone), or when it started before
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
  close(): Promise<void>;
}

export function keyString(values: readonly unknown[]): string {
  return values.length === 1 ? String(values[0]) : values.map((v) => String(v)).join('\u0000');
}
