// A first load into an empty table without its secondary indexes, built once at the end: SQLite keeps an
// index as each row comes (a b-tree insert per row and index, the pages changed journalled), while one
// CREATE INDEX over the filled table sorts once. A first `/v1` sync inserts 20,000 assets in about 90
// transactions; the two of 0047 alone, kept row by row, cost those inserts 0.16 s of CPU at scale 10 and
// 0.05-0.1 s built after (bench/RESULTS.md, "Speed gate"), and these four are every index of `assets`
// but its key's and the one the load itself reads (its live keys). An index only ever makes a read faster, never changes
// what it reads: while one is left out, every statement (the views, the crosswalk's triggers, another
// process) reads the same rows, only by scanning.
// Left out across transactions, so restored on every way out: at the load's end whatever its outcome
// (`finally`), and, for a process that died meanwhile (killed, power lost), at the next writable open:
// the repeatable object `deferred-indexes` (src/store/deferred-indexes.ts) finds one missing after the
// migrations (one read of sqlite_master) and makes it again. An index is left
// out only when its text is exactly the one below, the one this version's migrations make (checked by
// test/store/first-load.test.ts against a new file's schema), so the text that restores it is the same.
// The crosswalk's insert trigger on `assets` stays out the same way while the crosswalk is empty
// (sqlite-idle-triggers.ts), and comes back by the same ways.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../database.js';
import { IDLE_WHILE_EMPTY, type IdleWhileEmpty } from './sqlite-idle-triggers.js';

/** The connection's triggers a first load keeps set aside across its transactions (IdleTriggers). */
export interface HeldTriggers {
  holdAcross(table: string): void;
  restoreHeld(table: string): void;
}

interface DeferredIndex {
  table: string;
  name: string;
  /** As sqlite_master holds it (the migrations' text). */
  sql: string;
  /** Kept as rows come (never left out by a load), but made again like the others when missing. */
  keptDuringLoad?: true;
}

/** Secondary (not unique) indexes a load into their empty table may build at its end. */
export const DEFERRED_INDEXES: readonly DeferredIndex[] = [
  { table: 'assets', name: 'assets_slug', sql: 'CREATE INDEX "assets_slug" on "assets" ("slug")' },
  { table: 'assets', name: 'assets_rank', sql: 'CREATE INDEX "assets_rank" on "assets" ("market_cap_rank")' },
  {
    table: 'assets',
    name: 'assets_live_keys',
    sql: 'CREATE INDEX "assets_live_keys" on "assets" ("asset_class", "id") where "deleted_at" is null',
    // The load's own reads use it: each variant's end counts and reads its live keys (the deletion check)
    // while the other variants still load; without it those six reads scanned the table (130 ms against
    // 25 at scale 10), more than its short entries cost the inserts. Still made again if found missing
    // (a load of an earlier version, killed, left it out).
    keptDuringLoad: true,
  },
  { table: 'assets', name: 'assets_code_lower', sql: 'CREATE INDEX assets_code_lower on assets (lower(code)) where deleted_at is null' },
  { table: 'assets', name: 'assets_title_lower', sql: 'CREATE INDEX assets_title_lower on assets (lower(title)) where deleted_at is null' },
];

/**
 * Runs `load` with `table`'s deferred indexes left out when the table holds no row at its start (a first
 * load), and builds them after it, however it ends. A table that holds rows keeps its indexes (building
 * one over rows already there costs more than keeping it for the few a pass adds), and gets back any that
 * a load of another process, killed meanwhile, left out: a daemon that keeps the store open for days
 * restores them at its next pass over the table, not only at its next open.
 */
export async function loadWithoutIndexes<T>(
  db: Kysely<Database>,
  table: string,
  load: () => Promise<T>,
  triggers?: HeldTriggers,
): Promise<T> {
  const mine = DEFERRED_INDEXES.filter((i) => i.table === table);
  if (mine.length === 0) return load();
  // In one transaction, under the write lock: no row slips in between the check and the drop.
  const { first, dropped } = await db.transaction().execute(async (trx) => {
    const held = await definitions(trx, mine);
    const rows = await sql.raw<{ one: number }>(`select 1 as one from "${table}" limit 1`).execute(trx);
    if (rows.rows.length > 0) {
      await buildDeferredIndexes(
        trx,
        mine.filter((i) => !held.has(i.name)),
      );
      return { first: false, dropped: [] };
    }
    // One the load keeps but finds missing (a killed load of an earlier version) is made now, over no rows.
    await buildDeferredIndexes(
      trx,
      mine.filter((i) => i.keptDuringLoad && !held.has(i.name)),
      [], // the idle triggers stay as they are: the load sets them aside
    );
    const left = mine.filter((i) => !i.keptDuringLoad && held.get(i.name) === i.sql);
    for (const i of left) await sql.raw(`drop index "${i.name}"`).execute(trx);
    triggers?.holdAcross(table);
    return { first: true, dropped: left };
  });
  const rebuild = () =>
    first
      ? db.transaction().execute(async (trx) => {
          await buildDeferredIndexes(trx, dropped);
          triggers?.restoreHeld(table);
        })
      : Promise.resolve();
  let loaded: T;
  try {
    loaded = await load();
  } catch (error) {
    // The load's own error is the one to tell (a full disk fails both): the next open builds them then.
    await rebuild().catch(() => {});
    throw error;
  }
  await rebuild();
  return loaded;
}

/** Whether a load that never ended (its process killed) left one out: then `buildDeferredIndexes` makes them again. */
export async function deferredIndexMissing(db: Kysely<any>): Promise<boolean> {
  const tables = new Set(
    (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)).rows.map((r) => r.name),
  );
  const held = await definitions(db, DEFERRED_INDEXES);
  return DEFERRED_INDEXES.some((i) => tables.has(i.table) && !held.has(i.name)) || (await triggersMissing(db)).length > 0;
}

/**
 * Inside the caller's transaction: each one missing, made as the migrations made it, and each idle
 * trigger missing, with what it would have done meanwhile if it may act now (its catch-up, in set form).
 */
export async function buildDeferredIndexes(
  db: Kysely<any>,
  indexes: readonly DeferredIndex[] = DEFERRED_INDEXES,
  triggers?: readonly IdleWhileEmpty[],
): Promise<void> {
  // `if not exists`: another process's open may have built one meanwhile.
  for (const i of indexes) await sql.raw(i.sql.replace(/^CREATE INDEX /, 'CREATE INDEX IF NOT EXISTS ')).execute(db);
  for (const t of triggers ?? (await triggersMissing(db))) {
    await sql.raw(t.sql).execute(db);
    const mayAct = await sql.raw<{ one: number }>(`select 1 as one from "${t.emptyTable}" limit 1`).execute(db);
    if (mayAct.rows.length > 0) await sql.raw(t.catchUp).execute(db);
  }
}

/** The idle triggers (sqlite-idle-triggers.ts) the file lacks, though it holds both of their tables. */
async function triggersMissing(db: Kysely<any>): Promise<IdleWhileEmpty[]> {
  const { rows } = await sql<{
    type: string;
    name: string;
  }>`select type, name from sqlite_master where type in ('table', 'trigger')`.execute(db);
  const has = (type: string, name: string) => rows.some((r) => r.type === type && r.name === name);
  return IDLE_WHILE_EMPTY.filter((t) => has('table', t.table) && has('table', t.emptyTable) && !has('trigger', t.trigger));
}

async function definitions(db: Kysely<any>, indexes: readonly DeferredIndex[]): Promise<Map<string, string>> {
  const names = indexes.map((i) => i.name);
  const found = await sql<{
    name: string;
    sql: string;
  }>`select name, sql from sqlite_master where type = 'index' and name in (${sql.join(names)})`.execute(db);
  return new Map(found.rows.map((r) => [r.name, r.sql]));
}
