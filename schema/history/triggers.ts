// The history trigger of one mirrored table. It fires after an UPDATE that changes the row's content
// (row_hash) or soft-deletes it, unless history_settings turns the table off (no row: on), and copies the
// previous version into row_history with its validity and the runs that wrote and ended it (the run in
// progress at each time: the store's adapters need not know about history). A row that comes back
// after a soft delete adds nothing: its last version was kept when it was deleted. The SQL of each
// store comes from its analyst-SQL dialect (src/store/analyst-sql.ts).
import type { Kysely } from 'kysely';
import { hashDiffersSql } from '../../src/store/changed-row.js';
import { analystSql } from '../../src/store/analyst-dialects.js';
import type { Dialect } from '../../src/store/types.js';

export type HistoryDialect = Dialect;

export interface MirroredTable {
  name: string;
  key: string[];
}

const MIRROR_COLUMNS = ['raw', 'row_hash', 'first_seen_at', 'synced_at', 'deleted_at'];

/** Tables with the mirrored columns (raw, row_hash, sync times) and a primary key, read from the database. */
export async function mirroredTables(db: Kysely<unknown>, d: HistoryDialect): Promise<MirroredTable[]> {
  const tables = await analystSql(d).listTables(db);
  return tables
    .filter((t) => t.key.length > 0 && MIRROR_COLUMNS.every((c) => t.columns.some((col) => col.name === c)))
    .map((t) => ({ name: t.name, key: t.key }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

export function historyTriggerSql(table: MirroredTable, d: HistoryDialect): string[] {
  const sqlOf = analystSql(d);
  const name = table.name;
  const rowKey = table.key.map((k) => sqlOf.asText(`old.${k}`)).join(` || '|' || `);
  const insert = `insert into row_history (table_name, row_key, raw, row_hash, first_seen_at, valid_from, valid_to, change, run_id, ended_by_run_id)
    values ('${name}', ${rowKey}, old.raw, old.row_hash, old.first_seen_at, old.synced_at,
      coalesce(new.deleted_at, new.synced_at), case when new.deleted_at is not null then 'deleted' else 'updated' end,
      (select max(s.id) from sync_runs s where s.started_at <= old.synced_at),
      (select max(s.id) from sync_runs s where s.started_at <= coalesce(new.deleted_at, new.synced_at)))`;
  return sqlOf.rowTrigger({
    name: `${name}_keep_history`,
    table: name,
    when: `old.deleted_at is null and (new.deleted_at is not null or ${hashDiffersSql(d, 'old', 'new')})`,
    guard: sqlOf.onUnlessOff(`(select enabled from history_settings where table_name = '${name}')`),
    statement: insert,
  });
}
