// What tables a store holds, read from the database itself (not from the migrations), so `copy`
// moves every table a migration creates, including ones added after it was written. Each adapter
// reads its own catalog (sqlite/sqlite-tables.ts, postgres/postgres-tables.ts).
import type { Store, TableInfo } from './types.js';

export type { ColumnInfo, ColumnKind, TableInfo } from './types.js';

/**
 * Bookkeeping that belongs to one database, not to the mirror: migration records, the repeatable
 * objects' ledger (each database makes its own views), live leases and the shared pace.
 */
const DATABASE_ONLY = new Set(['leases', 'schema_objects', 'pace_slots']);

function isMirrorTable(name: string): boolean {
  return !name.startsWith('kysely_migration') && !DATABASE_ONLY.has(name) && !name.startsWith('sqlite_');
}

/**
 * Tables the store's own triggers keep from other tables' rows (alert_days from alert_history, the asset
 * crosswalk and its PostgreSQL queue from the assets of `/v1`, token unlocks and monitoring). Whatever
 * fills their sources fills them; a copy that wrote their rows too would count each alert twice.
 */
export const KEPT_BY_TRIGGERS: ReadonlySet<string> = new Set(['alert_days', 'asset_crosswalk', 'asset_crosswalk_pending']);

/** Tables every migration writes again from the code (the stream catalog): a new store already holds their rows. */
export const WRITTEN_AT_MIGRATE: ReadonlySet<string> = new Set(['catalog_streams']);

export async function listTables(store: Store): Promise<TableInfo[]> {
  const tables = await store.adapter.listTables();
  return tables.filter((t) => isMirrorTable(t.name)).sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** Parents before children; a cycle (none today) keeps the remaining tables in name order. */
export function parentsFirst(tables: readonly TableInfo[]): TableInfo[] {
  const names = new Set(tables.map((t) => t.name));
  const done = new Set<string>();
  const ordered: TableInfo[] = [];
  let left = [...tables];
  while (left.length > 0) {
    const ready = left.filter((t) => t.parents.every((p) => done.has(p) || !names.has(p)));
    const next = ready.length > 0 ? ready : left;
    for (const t of next) {
      ordered.push(t);
      done.add(t.name);
    }
    left = left.filter((t) => !done.has(t.name));
  }
  return ordered;
}
