// A SQLite connection for a writer thread, which cannot hold the store's adapter (a thread shares no objects
// with the main one): durable commits, each statement prepared at its first row and reused, rows written by
// column name with the store's own value conversion.
import type { Statement } from 'better-sqlite3';
import type { Row } from '../types.js';
import { openSqlite } from './sqlite-connection.js';
import { insertIgnoreSql } from './sqlite-statements.js';
import { toSqliteValue } from './sqlite-values.js';

export interface SqliteRowWriter {
  /** Inserts the row unless its key is held already; returns the rows changed (0 or 1). */
  insertIgnore(table: string, key: readonly string[], row: Row): number;
  /** Runs the statement `sqlFor` makes for the row's columns (made once per name); returns the rows changed. */
  run(name: string, sqlFor: (columns: readonly string[]) => string, row: Row): number;
  /** `fn` as one BEGIN IMMEDIATE transaction: the write lock taken up front, so a busy file waits. */
  immediate<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R;
  close(): void;
}

/** Every commit is synced (WAL, synchronous=FULL): what it writes has been acknowledged to someone. */
export function openSqliteRowWriter(file: string): SqliteRowWriter {
  const db = openSqlite(file, { synchronous: 'FULL', fileMustExist: true });
  const prepared = new Map<string, { statement: Statement; columns: string[] }>();
  const run = (name: string, sqlFor: (columns: readonly string[]) => string, row: Row): number => {
    let found = prepared.get(name);
    if (!found) {
      const columns = Object.keys(row);
      found = { statement: db.prepare(sqlFor(columns)), columns };
      prepared.set(name, found);
    }
    return found.statement.run(found.columns.map((c) => toSqliteValue(row[c]))).changes;
  };
  return {
    insertIgnore: (table, key, row) => run(`insert-ignore ${table}`, (columns) => insertIgnoreSql(table, columns, key), row),
    run,
    immediate: (fn) => db.transaction(fn).immediate,
    close: () => db.close(),
  };
}
