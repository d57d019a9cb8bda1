// The one place that knows the dialect: each adapter (sqlite-adapter.ts, postgres-adapter.ts) maps
// column types, converts values, writes a page of upserts its fastest way and speaks lease time.
import type { Kysely, RawBuilder } from 'kysely';
import type { ColumnTypes, Dialect } from './types.js';

/** One page for `upsertChanged`: keys unique, values already converted, in `columns` order (the row arrays are the adapter's to consume). */
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

export interface StoreAdapter {
  readonly dialect: Dialect;
  readonly db: Kysely<any>;
  readonly columnTypes: ColumnTypes;
  /** Bind parameters one statement may carry (multi-row inserts are chunked under it). */
  readonly maxParams: number;
  /** Schema that holds our tables and the migrations table (PostgreSQL `--db-schema`). */
  readonly schema?: string;
  /** What a second process should do when a lease is held, for the error message. */
  readonly leaseHint: string;
  /** A JS value as this driver binds it (booleans, objects, Dates). */
  toDb(value: unknown): unknown;
  /**
   * Writes the new, changed and resurrected rows of a page; must run inside `trx`'s transaction. A row
   * whose values the store refuses is left out and returned in `rejected`: the rest of the page is written.
   */
  upsertPage(trx: Kysely<any>, page: UpsertPage): Promise<{ inserted: number; updated: number; rejected: RejectedRow[] }>;
  /**
   * The mirror's own commits do not wait for an fsync (a crash loses at most the last pages, whose
   * checkpoints went with them, so they are fetched again); a transaction that acknowledges something
   * to the outside (a webhook delivery) must. SQLite switches the connection before and after such a
   * transaction (`durableCommits`, called outside transactions); PostgreSQL switches inside it
   * (`durableTransaction`, the transaction's first statement). Each is a no-op on the other dialect.
   */
  durableCommits(db: Kysely<any>, on: boolean): Promise<void>;
  durableTransaction(trx: Kysely<any>): Promise<void>;
  /** The current time and now + ttl, as the lease table compares them. */
  leaseNow(): RawBuilder<unknown>;
  leaseExpiry(ttlMs: number): RawBuilder<unknown>;
  close(): Promise<void>;
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** JSON text for objects and arrays, ISO for Dates; scalars as they are. */
export function toDbCommon(value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return value;
}
