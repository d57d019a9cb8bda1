// The SQL text of the statements the store's page upsert runs through better-sqlite3's prepared statements:
// Kysely would re-prepare them on every call.
import { quoteIdent } from '../store-adapter.js';

/** A mirrored table's row by key: select its stored version, insert it new, update it in place. */
export interface UpsertSql {
  /** row_hash, deleted_at of one key (the changed-row rule's inputs). */
  select: string;
  /** `columns`, then first_seen_at and synced_at. */
  insert: string;
  /** As `insert`, but a key already held is skipped (0 changes) rather than refused. */
  insertNew: string;
  /** `setColumns`, then synced_at, then the key. */
  update: string;
}

export function upsertSql(table: string, key: readonly string[], columns: readonly string[], setColumns: readonly string[]): UpsertSql {
  const t = quoteIdent(table);
  const keyWhere = key.map((k) => `${quoteIdent(k)} = ?`).join(' and ');
  const insert =
    `insert into ${t} (${columns.map(quoteIdent).join(', ')}, first_seen_at, synced_at, deleted_at) ` +
    `values (${columns.map(() => '?').join(', ')}, ?, ?, null)`;
  return {
    select: `select row_hash, deleted_at from ${t} where ${keyWhere}`,
    insert,
    insertNew: `${insert} on conflict (${key.map(quoteIdent).join(', ')}) do nothing`,
    update: `update ${t} set ${setColumns.map((c) => `${quoteIdent(c)} = ?`).join(', ')}, synced_at = ?, deleted_at = null where ${keyWhere}`,
  };
}
