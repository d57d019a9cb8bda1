// A SQLite connection for a writer thread, which cannot hold the store's adapter (a thread shares no objects
// with the main one): durable commits, rows written as their RowsWrite says, one row at a time through a
// statement prepared at its first row and reused, with the store's own value conversion.
import type { Statement } from 'better-sqlite3';
import { conflictSql } from '../rows-write.js';
import { quoteIdent } from '../store-adapter.js';
import type { RowsWrite } from '../types.js';
import { openSqlite } from './sqlite-connection.js';
import { toSqliteValue } from './sqlite-values.js';

export interface SqliteRowWriter {
  /** Writes the rows; returns those inserted or updated when the write is `counted`, else 0. */
  write(write: RowsWrite): number;
  /** `fn` as one BEGIN IMMEDIATE transaction: the write lock taken up front, so a busy file waits. */
  immediate<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R;
  close(): void;
}

/** Every commit is synced (WAL, synchronous=FULL): what it writes has been acknowledged to someone. */
export function openSqliteRowWriter(file: string): SqliteRowWriter {
  const db = openSqlite(file, { synchronous: 'FULL', fileMustExist: true });
  const prepared = new Map<string, Statement>();
  return {
    write(write) {
      if (write.rows.length === 0) return 0;
      const columns = Object.keys(write.rows[0]!);
      const conflict = conflictSql(write);
      const name = `${write.table}\u0000${columns.join(',')}\u0000${conflict}`;
      let statement = prepared.get(name);
      if (!statement) {
        statement = db.prepare(
          `insert into ${quoteIdent(write.table)} (${columns.map(quoteIdent).join(', ')}) ` +
            `values (${columns.map(() => '?').join(', ')}) ${conflict}`,
        );
        prepared.set(name, statement);
      }
      let changed = 0;
      for (const row of write.rows) changed += statement.run(columns.map((c) => toSqliteValue(row[c]))).changes;
      return write.counted ? changed : 0;
    },
    immediate: (fn) => db.transaction(fn).immediate,
    close: () => db.close(),
  };
}
