// A page of upserts on SQLite: prepared statements cached per table and column list, run on the same
// connection inside the Kysely transaction (Kysely's own execute() re-prepares per call: about 14
// times slower). Each row is looked up by key and written only when the changed-row rule says so.
import type { Database as Sqlite, Statement } from 'better-sqlite3';
import { rowChanged } from '../changed-row.js';
import { isRecordError } from '../storage-errors.js';
import type { RejectedRow, UpsertPage } from '../types.js';
import { upsertSql } from './sqlite-statements.js';

interface UpsertStatements {
  select: Statement;
  insert: Statement;
  update: Statement;
  keyIndexes: number[];
  hashIndex: number;
  updateIndexes: number[]; // non-key columns, in SET order
}

export interface SqliteUpserter {
  upsertPage(page: UpsertPage): { inserted: number; updated: number; rejected: RejectedRow[] };
  clear(): void;
}

export function sqliteUpserter(sqlite: Sqlite): SqliteUpserter {
  const statements = new Map<string, UpsertStatements>();
  const prepared = (page: UpsertPage): UpsertStatements => {
    const cacheKey = `${page.table}\u0000${page.key.join(',')}\u0000${page.columns.join(',')}`;
    let found = statements.get(cacheKey);
    if (!found) statements.set(cacheKey, (found = prepare(sqlite, page)));
    return found;
  };
  return {
    upsertPage: (page) => writePage(prepared(page), page),
    clear: () => statements.clear(),
  };
}

function prepare(sqlite: Sqlite, page: UpsertPage): UpsertStatements {
  const keyIndexes = page.key.map((k) => indexOf(page.columns, k, page.table));
  const updateIndexes = page.columns.map((_, i) => i).filter((i) => !keyIndexes.includes(i));
  const text = upsertSql(
    page.table,
    page.key,
    page.columns,
    updateIndexes.map((i) => page.columns[i]!),
  );
  return {
    select: sqlite.prepare(text.select).raw(),
    insert: sqlite.prepare(text.insert),
    update: sqlite.prepare(text.update),
    keyIndexes,
    hashIndex: indexOf(page.columns, 'row_hash', page.table),
    updateIndexes,
  };
}

/**
 * The row arrays are ours to consume (UpsertPage): the timestamps are appended in place. A failed
 * statement leaves the transaction open (SQLite undoes that statement only): the row is rejected alone.
 */
function writePage(s: UpsertStatements, page: UpsertPage): { inserted: number; updated: number; rejected: RejectedRow[] } {
  let inserted = 0;
  let updated = 0;
  const rejected: RejectedRow[] = [];
  for (let r = 0; r < page.rows.length; r++) {
    const row = page.rows[r]!;
    try {
      const key = s.keyIndexes.length === 1 ? [row[s.keyIndexes[0]!]] : s.keyIndexes.map((i) => row[i]);
      const existing = s.select.get(key) as [unknown, unknown] | undefined;
      if (existing === undefined) {
        row.push(page.now, page.now);
        s.insert.run(row);
        inserted++;
      } else if (rowChanged({ row_hash: existing[0], deleted_at: existing[1] }, row[s.hashIndex])) {
        s.update.run([...s.updateIndexes.map((i) => row[i]), page.now, ...key]);
        updated++;
      }
    } catch (err) {
      if (!isRecordError(err)) throw err;
      rejected.push({ index: r, reason: (err as Error).message.slice(0, 300) });
    }
  }
  return { inserted, updated, rejected };
}

function indexOf(columns: readonly string[], name: string, table: string): number {
  const i = columns.indexOf(name);
  if (i < 0) throw new Error(`upsert into ${table}: the rows lack column "${name}"`);
  return i;
}
