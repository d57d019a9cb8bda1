// SQLite through better-sqlite3 (connection and pragmas: sqlite-connection.ts); upserts use prepared
// statements cached per table and column list, run on the same connection inside the Kysely
// transaction (Kysely's own execute() re-prepares per call: about 14 times slower).
import { Kysely, sql } from 'kysely';
import type { Statement } from 'better-sqlite3';
import { ImmediateSqliteDialect } from './sqlite-immediate-dialect.js';
import { openSqlite, toSqliteValue } from './sqlite-connection.js';
import { quoteIdent } from './store-adapter.js';
import { isRecordError } from './storage-errors.js';
import type { RejectedRow, StoreAdapter, UpsertPage } from './store-adapter.js';
import type { ColumnTypes } from './types.js';

interface UpsertStatements {
  select: Statement; // row_hash, deleted_at of one key
  insert: Statement;
  update: Statement;
  keyIndexes: number[];
  hashIndex: number;
  updateIndexes: number[]; // non-key columns, in SET order
}

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

export function createSqliteAdapter(path: string): StoreAdapter {
  const sqlite = openSqlite(path);
  const db = new Kysely<any>({ dialect: new ImmediateSqliteDialect({ database: sqlite }) });
  const statements = new Map<string, UpsertStatements>();

  function prepare(page: UpsertPage): UpsertStatements {
    const cacheKey = `${page.table}\u0000${page.key.join(',')}\u0000${page.columns.join(',')}`;
    let found = statements.get(cacheKey);
    if (found) return found;
    const t = quoteIdent(page.table);
    const cols = page.columns.map(quoteIdent);
    const keyIndexes = page.key.map((k) => indexOf(page.columns, k, page.table));
    const updateIndexes = page.columns.map((_, i) => i).filter((i) => !keyIndexes.includes(i));
    const keyWhere = page.key.map((k) => `${quoteIdent(k)} = ?`).join(' and ');
    found = {
      select: sqlite.prepare(`select row_hash, deleted_at from ${t} where ${keyWhere}`).raw(),
      insert: sqlite.prepare(
        `insert into ${t} (${cols.join(', ')}, first_seen_at, synced_at, deleted_at) ` +
          `values (${cols.map(() => '?').join(', ')}, ?, ?, null)`,
      ),
      update: sqlite.prepare(
        `update ${t} set ${updateIndexes.map((i) => `${cols[i]} = ?`).join(', ')}, ` +
          `synced_at = ?, deleted_at = null where ${keyWhere}`,
      ),
      keyIndexes,
      hashIndex: indexOf(page.columns, 'row_hash', page.table),
      updateIndexes,
    };
    statements.set(cacheKey, found);
    return found;
  }

  return {
    dialect: 'sqlite',
    db,
    columnTypes: SQLITE_COLUMN_TYPES,
    maxParams: 32_766,
    // WAL with synchronous=NORMAL survives a crash of the process but may lose the last commits on power
    // loss; a transaction that acknowledges something to the outside (a webhook) commits with FULL.
    async durableCommits(conn, on) {
      await sql.raw(`pragma synchronous = ${on ? 'FULL' : 'NORMAL'}`).execute(conn);
    },
    async durableTransaction() {},
    leaseHint:
      'another ds-mirror process is working on this SQLite file; wait for it to finish (or for the lease to ' +
      'expire if it crashed), or use PostgreSQL (--db postgres://...) to run several workers side by side',
    toDb: toSqliteValue,
    async upsertPage(_trx, page) {
      const s = prepare(page);
      let inserted = 0;
      let updated = 0;
      const rejected: RejectedRow[] = [];
      // The row arrays are ours to consume (UpsertPage): the timestamps are appended in place. A failed
      // statement leaves the transaction open (SQLite undoes that statement only): the row is rejected alone.
      for (let r = 0; r < page.rows.length; r++) {
        const row = page.rows[r]!;
        try {
          const key = s.keyIndexes.length === 1 ? [row[s.keyIndexes[0]]] : s.keyIndexes.map((i) => row[i]);
          const existing = s.select.get(key) as [unknown, unknown] | undefined;
          if (existing === undefined) {
            row.push(page.now, page.now);
            s.insert.run(row);
            inserted++;
          } else if (existing[0] !== row[s.hashIndex] || existing[1] !== null) {
            s.update.run([...s.updateIndexes.map((i) => row[i]), page.now, ...key]);
            updated++;
          }
        } catch (err) {
          if (!isRecordError(err)) throw err;
          rejected.push({ index: r, reason: (err as Error).message.slice(0, 300) });
        }
      }
      return { inserted, updated, rejected };
    },
    leaseNow: () => sql`${new Date().toISOString()}`,
    leaseExpiry: (ttlMs) => sql`${new Date(Date.now() + ttlMs).toISOString()}`,
    async close() {
      statements.clear();
      await db.destroy();
    },
  };
}

function indexOf(columns: readonly string[], name: string, table: string): number {
  const i = columns.indexOf(name);
  if (i < 0) throw new Error(`upsert into ${table}: the rows lack column "${name}"`);
  return i;
}
