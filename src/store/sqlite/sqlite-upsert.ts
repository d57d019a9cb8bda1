// A page of upserts on SQLite: prepared statements cached per table and column list, run on the same
// connection inside the Kysely transaction (Kysely's own execute() re-prepares per call: about 14
// times slower). Each row is looked up by key and written only when the changed-row rule says so; while
// a table's rows keep coming new (a first sync), each is inserted at once and looked up only if held.
import type { Database as Sqlite, Statement } from 'better-sqlite3';
import { rowChanged } from '../changed-row.js';
import { isSqliteRecordError } from './sqlite-errors.js';
import type { RejectedRow, UpsertPage } from '../types.js';
import { upsertSql } from './sqlite-statements.js';
import type { IdleTriggers } from './sqlite-idle-triggers.js';

interface UpsertStatements {
  select: Statement;
  insert: Statement;
  /** Null where no unique index covers exactly the key (ON CONFLICT needs one): rows are looked up first. */
  insertNew: Statement | null;
  update: Statement;
  /** The last page's rows were all new: insert first (one statement a row), look up only a key already held. */
  allNew: boolean;
  keyIndexes: number[];
  hashIndex: number;
  updateIndexes: number[]; // non-key columns, in SET order
}

export interface SqliteUpserter {
  upsertPage(page: UpsertPage): Promise<{ inserted: number; updated: number; rejected: RejectedRow[] }>;
  clear(): void;
}

/**
 * Rows written between two turns of the event loop. SQLite writes on this thread and never waits, so a
 * page group or a 10,000-record page would otherwise keep every answer that came meanwhile unread until
 * it commits (at 50 ms a request, the first sync's round trips took twice that).
 */
const ROWS_BETWEEN_TURNS = 250;

/** `idle`: the connection's triggers that pages of new rows may set aside until the commit (sqlite-idle-triggers.ts). */
export function sqliteUpserter(sqlite: Sqlite, idle: IdleTriggers): SqliteUpserter {
  const statements = new Map<string, UpsertStatements>();
  const prepared = (page: UpsertPage): UpsertStatements => {
    const cacheKey = `${page.table}\u0000${page.key.join(',')}\u0000${page.columns.join(',')}`;
    let found = statements.get(cacheKey);
    if (!found) statements.set(cacheKey, (found = prepare(sqlite, page)));
    return found;
  };
  return {
    upsertPage: async (page) => {
      const s = prepared(page);
      const written = { inserted: 0, updated: 0, rejected: [] as RejectedRow[] };
      for (let from = 0; from < page.rows.length; from += ROWS_BETWEEN_TURNS) {
        await new Promise((resolve) => setImmediate(resolve));
        const rows = page.rows.slice(from, from + ROWS_BETWEEN_TURNS);
        const part = idle.around(page.table, s.allNew, () => writePage(s, { ...page, rows }));
        written.inserted += part.inserted;
        written.updated += part.updated;
        for (const r of part.rejected) written.rejected.push({ ...r, index: r.index + from });
      }
      return written;
    },
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
    insertNew: prepareOrNull(sqlite, text.insertNew),
    update: sqlite.prepare(text.update),
    allNew: true,
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
  const insertNew = s.allNew ? s.insertNew : null;
  for (let r = 0; r < page.rows.length; r++) {
    const row = page.rows[r]!;
    row.push(page.now, page.now); // first_seen_at, synced_at of an insert; the update names its columns
    try {
      if (insertNew && insertNew.run(row).changes === 1) {
        inserted++;
        continue;
      }
      const key = s.keyIndexes.length === 1 ? [row[s.keyIndexes[0]!]] : s.keyIndexes.map((i) => row[i]);
      const existing = s.select.get(key) as [unknown, unknown] | undefined;
      if (existing === undefined) {
        s.insert.run(row);
        inserted++;
      } else if (rowChanged({ row_hash: existing[0], deleted_at: existing[1] }, row[s.hashIndex])) {
        s.update.run([...s.updateIndexes.map((i) => row[i]), page.now, ...key]);
        updated++;
      }
    } catch (err) {
      if (!isSqliteRecordError(err)) throw err;
      rejected.push({ index: r, reason: (err as Error).message.slice(0, 300) });
    }
  }
  // A page with a row already held (an incremental run) goes back to looking up first.
  s.allNew = inserted === page.rows.length;
  return { inserted, updated, rejected };
}

function prepareOrNull(sqlite: Sqlite, text: string): Statement | null {
  try {
    return sqlite.prepare(text);
  } catch {
    return null;
  }
}

function indexOf(columns: readonly string[], name: string, table: string): number {
  const i = columns.indexOf(name);
  if (i < 0) throw new Error(`upsert into ${table}: the rows lack column "${name}"`);
  return i;
}
