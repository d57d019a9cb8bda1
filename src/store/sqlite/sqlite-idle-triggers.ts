// Insert triggers that cannot act while another table is empty, set aside during a write transaction's
// inserts and created again before it commits. The crosswalk's trigger on `assets` (migrations 0060,
// 0064) recomputes links only when a crosswalk row meets the new asset, so while `asset_crosswalk` is
// empty it does nothing; yet its mere presence made SQLite's insert of each of a first sync's 20,000
// assets cost 2.3x (1.8-2.0 s of CPU against 0.8-0.9 s without it at scale 10, the rows a sync writes in
// its order): a trigger whose statements may abort makes every insert keep a statement journal of the
// 16 KiB pages it changes. Dropped inside the transaction, no other connection can add a crosswalk row
// meanwhile (this one holds the write lock) and none ever sees the schema without it (the DDL commits or
// rolls back with the rows).
// A first load (`holdAcross`, sqlite-first-load.ts) keeps it out across its ~90 transactions instead:
// each drop and create is DDL, which made every prepared statement of the connection prepare again
// (0.3-0.5 s of a first sync's CPU at scale 10). Out between transactions, another process may see the
// schema without it; so each of the load's transactions looks again and creates it the moment the
// crosswalk holds a row, with what it would have done meanwhile (`catchUp`, in set form), and a process
// killed before the load's end leaves it to the next writable open (the repeatable `deferred-indexes`),
// which makes it from the text below, the one the migrations made.
import type { Database as Sqlite, Statement } from 'better-sqlite3';
import { CROSSWALK_ALL_LINKS, CROSSWALK_ASSETS_INSERT } from './sqlite-crosswalk-trigger.js';

/** A trigger on `table` whose WHEN requires a row of `emptyTable` (so it does nothing while that is empty). */
export interface IdleWhileEmpty {
  table: string;
  trigger: string;
  emptyTable: string;
  /** Its text as the migrations made it: set aside only while the file holds exactly this one. */
  sql: string;
  /** What it maintains, recomputed for every row at once: run when it comes back while it may act. */
  catchUp: string;
}

export const IDLE_WHILE_EMPTY: readonly IdleWhileEmpty[] = [
  {
    table: 'assets',
    trigger: 'asset_crosswalk_assets_insert',
    emptyTable: 'asset_crosswalk',
    sql: CROSSWALK_ASSETS_INSERT,
    catchUp: CROSSWALK_ALL_LINKS,
  },
];

interface IdleTrigger {
  idle: IdleWhileEmpty;
  /** Whether the table it waits on holds a row (then it may act and must be there). */
  mayAct: Statement;
}

/** The triggers of one connection that its transactions may set aside. */
export class IdleTriggers {
  private readonly byTable = new Map<string, IdleTrigger[]>();
  /** Set aside in the open transaction, to be created again before it commits. */
  private readonly dropped = new Map<string, IdleTrigger>();
  /** Tables in a first load: their triggers set aside stay out across commits until `restoreHeld`. */
  private readonly held = new Set<string>();
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
      else if (setAside && !this.dropped.has(t.idle.trigger)) {
        this.sqlite.exec(`drop trigger if exists "${t.idle.trigger}"`);
        this.dropped.set(t.idle.trigger, t);
      }
    }
    return write();
  }

  /** Before a commit: every trigger set aside is created again (but a first load's), so the transaction commits the schema it began with. */
  restoreAll(): void {
    for (const t of [...this.dropped.values()]) if (!this.held.has(t.idle.table)) this.restore(t);
  }

  /** After a rollback: what this transaction dropped came back with it (a first load's is looked up again). */
  forget(): void {
    this.dropped.clear();
  }

  /** A first load into `table` begins: what its pages set aside stays out until `restoreHeld`. */
  holdAcross(table: string): void {
    this.held.add(table);
  }

  /** Inside a transaction, at a first load's end however it ended: `table`'s triggers are there again. */
  restoreHeld(table: string): void {
    this.held.delete(table);
    for (const t of this.of(table)) this.restore(t);
  }

  private restore(t: IdleTrigger): void {
    this.dropped.delete(t.idle.trigger);
    // Looked up, not remembered: a rollback (to a savepoint) or another process's open may have made it.
    if (this.exists.get(t.idle.trigger)) return;
    // Together or not at all (a savepoint inside the caller's transaction), so it is never there without its catch-up.
    this.sqlite.transaction(() => {
      this.sqlite.exec(t.idle.sql);
      if (t.mayAct.get()) this.sqlite.exec(t.idle.catchUp);
    })();
  }

  /**
   * `table`'s triggers that may be set aside: the file holds the migrations' text (a later migration
   * changed it: left alone), or none (set aside by a load that never ended: it comes back as it may act).
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
      if (sql === undefined || sql === idle.sql)
        found.push({ idle, mayAct: this.sqlite.prepare(`select exists (select 1 from ${idle.emptyTable})`).pluck() });
    }
    this.byTable.set(table, found);
    return found;
  }
}
