// The history trigger of one mirrored table, per dialect. It fires after an UPDATE that changes the
// row's content (row_hash) or soft-deletes it, unless history_settings turns the table off (no row: on),
// and copies the previous version into row_history with its validity and the runs that wrote and ended it (the run in
// progress at each time: the store's adapters need not know about history). A row that comes back
// after a soft delete adds nothing: its last version was kept when it was deleted.
import { sql, type Kysely } from 'kysely';
import { hashDiffersSql } from '../../src/store/changed-row.js';
import type { Dialect } from '../../src/store/types.js';

export type HistoryDialect = Dialect;

export interface MirroredTable {
  name: string;
  key: string[];
}

const MIRROR_COLUMNS = ['raw', 'row_hash', 'first_seen_at', 'synced_at', 'deleted_at'];

/** Tables with the mirrored columns (raw, row_hash, sync times) and a primary key, read from the database. */
export async function mirroredTables(db: Kysely<unknown>, d: HistoryDialect): Promise<MirroredTable[]> {
  const rows =
    d === 'sqlite'
      ? (
          await sql<{ table: string; column: string; pk: number }>`
            select m.name as "table", c.name as "column", c.pk as pk
            from sqlite_master m join pragma_table_info(m.name) c
            where m.type = 'table' and m.name not like 'sqlite_%'
            order by m.name, c.pk`.execute(db)
        ).rows
      : (
          await sql<{ table: string; column: string; pk: number }>`
            select c.relname as "table", a.attname as "column", coalesce((select k.n from unnest(i.indkey::int2[]) with ordinality as k(attnum, n) where k.attnum = a.attnum), 0) as pk
            from pg_class c
              join pg_namespace n on n.oid = c.relnamespace
              join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
              left join pg_index i on i.indrelid = c.oid and i.indisprimary
            where n.nspname = current_schema() and c.relkind = 'r'
            order by c.relname, 3`.execute(db)
        ).rows;
  const tables = new Map<string, { columns: Set<string>; key: string[] }>();
  for (const r of rows) {
    const t = tables.get(r.table) ?? { columns: new Set<string>(), key: [] };
    t.columns.add(r.column);
    if (Number(r.pk) > 0) t.key.push(r.column);
    tables.set(r.table, t);
  }
  return [...tables]
    .filter(([, t]) => t.key.length > 0 && MIRROR_COLUMNS.every((c) => t.columns.has(c)))
    .map(([name, t]) => ({ name, key: t.key }));
}

function rowKey(table: MirroredTable, d: HistoryDialect): string {
  return table.key.map((k) => (d === 'sqlite' ? `cast(old.${k} as text)` : `old.${k}::text`)).join(` || '|' || `);
}

export function historyTriggerSql(table: MirroredTable, d: HistoryDialect): string[] {
  const name = table.name;
  const changed = hashDiffersSql(d, 'old', 'new');
  const when = `old.deleted_at is null and (new.deleted_at is not null or ${changed})`;
  const insert = `insert into row_history (table_name, row_key, raw, row_hash, first_seen_at, valid_from, valid_to, change, run_id, ended_by_run_id)
    values ('${name}', ${rowKey(table, d)}, old.raw, old.row_hash, old.first_seen_at, old.synced_at,
      coalesce(new.deleted_at, new.synced_at), case when new.deleted_at is not null then 'deleted' else 'updated' end,
      (select max(s.id) from sync_runs s where s.started_at <= old.synced_at),
      (select max(s.id) from sync_runs s where s.started_at <= coalesce(new.deleted_at, new.synced_at)))`;
  if (d === 'sqlite') {
    return [
      `create trigger ${name}_keep_history after update on ${name} for each row
  when ${when} and coalesce((select enabled from history_settings where table_name = '${name}'), 1) = 1
begin
  ${insert};
end`,
    ];
  }
  return [
    `create or replace function ${name}_keep_history() returns trigger language plpgsql as $$
begin
  if coalesce((select enabled from history_settings where table_name = '${name}'), true) then
    ${insert};
  end if;
  return null;
end $$`,
    `create trigger ${name}_keep_history after update on ${name} for each row when (${when}) execute function ${name}_keep_history()`,
  ];
}
