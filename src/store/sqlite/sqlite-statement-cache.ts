// The connection as Kysely's SQLite driver sees it, with its prepared statements kept: the driver
// prepares every query it runs, and a sync runs the same few (a page's hash, the checkpoint, the ledger)
// hundreds of times. A statement still being iterated (a streamed read) is busy: another is prepared.
import type { Database as Sqlite, Statement } from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** Statements kept: the engine's queries are a few dozen texts; `in (?, ?, ...)` lists make more. */
const KEPT = 256;

export function statementCache(sqlite: Sqlite): SqliteDatabase {
  const kept = new Map<string, Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string): Statement {
      const found = kept.get(sql);
      if (found && !found.busy) return found;
      const statement = sqlite.prepare(sql);
      if (kept.size >= KEPT) kept.delete(kept.keys().next().value!);
      kept.set(sql, statement);
      return statement;
    },
  };
}
