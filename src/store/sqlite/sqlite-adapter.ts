// SQLite through better-sqlite3 (connection and pragmas: sqlite-connection.ts; page upserts:
// sqlite-upsert.ts). Booleans are 0/1, JSON and times text; lease times are ISO texts from this clock.
import { resolve } from 'node:path';
import { Kysely, sql } from 'kysely';
import type SqliteDatabase from 'better-sqlite3';
import type { Database } from '../database.js';
import { mirrorTables } from '../database.js';
import { rowsUnder } from '../store-adapter.js';
import type { ColumnTypes, Row, StoreAdapter } from '../types.js';
import { openSqlite } from './sqlite-connection.js';
import { openSqliteReadOnly } from './sqlite-read-only.js';
import { IdleTriggers } from './sqlite-idle-triggers.js';
import { loadWithoutIndexes } from './sqlite-first-load.js';
import { ImmediateSqliteDialect } from './sqlite-immediate-dialect.js';
import { statementCache } from './sqlite-statement-cache.js';
import { sqliteTables } from './sqlite-tables.js';
import { sqliteUpserter } from './sqlite-upsert.js';
import { startSqliteWriter } from './sqlite-writer.js';
import { toSqliteValue } from './sqlite-values.js';

export const SQLITE_COLUMN_TYPES: ColumnTypes = Object.freeze({
  text: 'text',
  integer: 'integer',
  bigint: 'integer',
  double: 'real',
  boolean: 'integer',
  json: 'text',
  timestamp: 'text',
  serial: 'integer',
});

const MAX_PARAMS = 32_766;

const LEASE_HINT =
  'another ds-mirror process is working on this SQLite file; wait for it to finish (or for the lease to ' +
  'expire if it crashed), or use PostgreSQL (--db postgres://...) to run several workers side by side';

/** `readOnly`: an existing file, never written (see sqlite-read-only.ts). */
export function createSqliteAdapter(path: string, readOnly = false, busyMs?: number): StoreAdapter {
  const sqlite = readOnly ? openSqliteReadOnly(path, busyMs) : openSqlite(path, { busyMs });
  const idle = new IdleTriggers(sqlite);
  const hooks = { beforeCommit: () => idle.restoreAll(), afterRollback: () => idle.forget() };
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: statementCache(sqlite) }, hooks) });
  const upserter = sqliteUpserter(sqlite, idle);
  return {
    dialect: 'sqlite',
    db,
    columnTypes: SQLITE_COLUMN_TYPES,
    knowsColumnKinds: false,
    leaseHint: LEASE_HINT,
    // One connection: a script runs inside the transaction Kysely holds open on it.
    script: (statements) => void sqlite.exec(statements),
    // An in-memory database exists only on this connection.
    ...(path === ':memory:' || path === '' || readOnly ? {} : { writerThread: () => startSqliteWriter(resolve(path)) }),
    rowsPerStatement: rowsUnder(MAX_PARAMS),
    toDb: toSqliteValue,
    toColumn: () => toSqliteValue,
    upsertPage: (_trx, page) => upserter.upsertPage(page),
    ...(readOnly ? {} : { firstLoad: (table, load) => loadWithoutIndexes(db, table, load, idle) }),
    listTables: () => sqliteTables(db),
    readBatches: (relation, batchRows) => sqliteBatches(db, sqlite, relation, batchRows),
    // WAL with synchronous=NORMAL survives a crash of the process but may lose the last commits on power
    // loss; a transaction that acknowledges something to the outside (a webhook) commits with FULL.
    async durableCommits(conn, on) {
      await sql.raw(`pragma synchronous = ${on ? 'FULL' : 'NORMAL'}`).execute(conn);
    },
    async durableTransaction() {},
    leaseNow: () => sql<string>`${new Date().toISOString()}`,
    leaseExpiry: (ttlMs) => sql<string>`${new Date(Date.now() + ttlMs).toISOString()}`,
    async close() {
      upserter.clear();
      await db.destroy();
    },
  };
}

/**
 * One statement iterated by better-sqlite3 itself, cut into batches. Not through Kysely's stream, whose
 * promise and result object per row made an export's batch outlive several young-generation GCs: its rows
 * were promoted and the old generation grew to 300 MB before a full GC (scale 30, v_assets). Until the
 * reader finishes or is returned, a write on this connection fails as busy (Kysely's stream made it wait).
 */
async function* sqliteBatches(
  db: Kysely<Database>,
  sqlite: SqliteDatabase.Database,
  relation: string,
  batchRows: number,
): AsyncGenerator<Row[]> {
  const query = mirrorTables(db).selectFrom(relation).selectAll().compile();
  let batch: Row[] = [];
  for (const row of sqlite.prepare(query.sql).iterate(...query.parameters)) {
    batch.push(row as Row);
    if (batch.length >= batchRows) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
