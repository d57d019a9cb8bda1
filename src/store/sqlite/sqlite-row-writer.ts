// A SQLite connection for a writer thread, which cannot hold the store's adapter (a thread shares no objects
// with the main one): durable commits, each statement prepared at its first row and reused, rows written by
// column name with the store's own value conversion.
import type { Statement } from 'better-sqlite3';
import type { Row, RowWriter } from '../types.js';
import { openSqlite } from './sqlite-connection.js';
import { insertIgnoreSql } from './sqlite-statements.js';
import { toSqliteValue } from './sqlite-values.js';

export interface SqliteRowWriter extends RowWriter {
  /** `fn` as one BEGIN IMMEDIATE transaction: the write lock taken up front, so a busy file waits. */
  immediate<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R;
  close(): void;
}

/** Every commit is synced (WAL, synchronous=FULL): what it writes has been acknowledged to someone. */
export function openSqliteRowWriter(file: string): SqliteRowWriter {
  const db = openSqlite(file, { synchronous: 'FULL', fileMustExist: true });
  const prepared = new Map<string, { statement: Statement; columns: string[] }>();
  const run: RowWriter['run'] = (name, sqlFor, row) => {
    let found = prepared.get(name);
    if (!found) {
      const columns = Object.keys(row);
      found = {
        statement: db.prepare(
          sqlFor(
            columns,
            columns.map(() => '?'),
          ),
        ),
        columns,
      };
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
