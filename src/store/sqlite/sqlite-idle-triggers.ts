// Insert triggers that cannot act while another table is empty, set aside during a write transaction's
// inserts and created again before it commits. The crosswalk's trigger on `assets` (migrations 0060,
// 0064) recomputes links only when a crosswalk row meets the new asset, so while `asset_crosswalk` is
// empty it does nothing; yet its mere presence made SQLite's insert of each of a first sync's 20,000
// assets cost 2.3x (1.8-2.0 s of CPU against 0.8-0.9 s without it at scale 10, the rows a sync writes in
// its order): a trigger whose statements may abort makes every insert keep a statement journal of the
// 16 KiB pages it changes. Dropped inside the transaction, no other connection can add a crosswalk row
// meanwhile (this one holds the write lock) and none ever sees the schema without it (the DDL commits or
// rolls back with the rows); its text is the one sqlite_master held.
import type { Database as Sqlite, Statement } from 'better-sqlite3';

/** A trigger on `table` whose WHEN requires a row of `emptyTable` (so it does nothing while that is empty). */
interface IdleWhileEmpty {
  table: string;
  trigger: string;
  emptyTable: string;
}

const IDLE_WHILE_EMPTY: readonly IdleWhileEmpty[] = [
  { table: 'assets', trigger: 'asset_crosswalk_assets_insert', emptyTable: 'asset_crosswalk' },
];

interface IdleTrigger {
  name: string;
  /** Its text as sqlite_master held it, to create it again. */
  sql: string;
  /** Whether the table it waits on holds a row (then it may act and must be there). */
  mayAct: Statement;
}

/** The triggers of one connection that its transactions may set aside. */
export class IdleTriggers {
  private readonly byTable = new Map<string, IdleTrigger[]>();
  /** Set aside in the open transaction, to be created again before it commits. */
  private readonly dropped = new Map<string, IdleTrigger>();
  private readonly exists: Statement;

  constructor(private readonly sqlite: Sqlite) {
    this.exists = sqlite.prepare(`select 1 from sqlite_master where type = 'trigger' and name = ?`).pluck();
  }

  /**
   * Runs `write` (synchronous: nothing else runs on the connection meanwhile) with `table`'s triggers that
   * cannot act set aside until the transaction commits (when `setAside`: pages of new rows), and any that
   * could act now in place first. Outside a transaction nothing is set aside (the DDL would commit alone).
   */
  around<T>(table: string, setAside: boolean, write: () => T): T {
    const triggers = this.of(table);
    if (triggers.length === 0) return write();
    for (const t of triggers) {
      if (t.mayAct.get() || !this.sqlite.inTransaction) this.restore(t);
      else if (setAside && !this.dropped.has(t.name)) {
        this.sqlite.exec(`drop trigger if exists "${t.name}"`);
        this.dropped.set(t.name, t);
      }
    }
    return write();
  }

  /** Before a commit: every trigger set aside is created again, so the transaction commits the schema it began with. */
  restoreAll(): void {
    for (const t of [...this.dropped.values()]) this.restore(t);
  }

  /** After a rollback: what was dropped came back with it. */
  forget(): void {
    this.dropped.clear();
  }

  private restore(t: IdleTrigger): void {
    if (!this.dropped.delete(t.name)) return;
    // A rollback to a savepoint may have brought it back already.
    if (!this.exists.get(t.name)) this.sqlite.exec(t.sql);
  }

  /**
   * `table`'s triggers that may be set aside, as the file declares them now: one whose WHEN does not start
   * by requiring a row of the other table (a later migration changed it) is left alone.
   */
  private of(table: string): IdleTrigger[] {
    let found = this.byTable.get(table);
    if (found) return found;
    found = [];
    for (const idle of IDLE_WHILE_EMPTY.filter((i) => i.table === table)) {
      const sql = this.sqlite
        .prepare(`select sql from sqlite_master where type = 'trigger' and name = ? and tbl_name = ?`)
        .pluck()
        .get(idle.trigger, table) as string | undefined;
      if (sql && requiresRowOf(sql, idle.emptyTable))
        found.push({ name: idle.trigger, sql, mayAct: this.sqlite.prepare(`select exists (select 1 from ${idle.emptyTable})`).pluck() });
    }
    this.byTable.set(table, found);
    return found;
  }
}

/** Whether an insert trigger's WHEN is `exists (select 1 from <table> ...)`, alone or and-ed with more. */
function requiresRowOf(triggerSql: string, table: string): boolean {
  const when = /\bafter\s+insert\s+on\s+\S+\s+for\s+each\s+row\s+when\s+([\s\S]*?)\s+begin\b/i.exec(triggerSql)?.[1];
  if (!when || !new RegExp(`^exists\\s*\\(\\s*select\\s+1\\s+from\\s+${table}\\s`, 'i').test(when)) return false;
  // Outside its parentheses, an `or` would let the trigger act without that row.
  const outside = when.replace(/\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)/g, '()');
  return !/\bor\b/i.test(outside);
}
