// Typed history (#24.5): row_history kept only the previous version's raw record, so an analyst asking
// for an old price of a table without a typed view read JSON (camelCase keys on the monitoring services).
// The history trigger of each table whose versions view reads the table's own columns now also keeps the
// previous version's columns (the typed ones, not raw and the bookkeeping) in `typed_row`, a JSON object
// by column name, read back with the table's types by the v_*_history views. Versions kept before this
// migration, and those of tables whose views lift everything from raw, have none (null).
// Frozen: this file reads the tables that have a history trigger (0013) and rewrites each trigger with
// SQL of its own, so replaying it later gives the same schema whatever the code of the day.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes, Dialect } from '../../src/store/types.js';

const BOOKKEEPING = new Set(['raw', 'row_hash', 'first_seen_at', 'synced_at', 'deleted_at']);
/**
 * Tables whose versions view lifts every column from the kept raw: their typed columns would only repeat
 * raw (measured: an assets version's columns are as large as its raw, doubling its history).
 */
const LIFTED_FROM_RAW = new Set(['assets', 'market_stats', 'projects', 'sec_filings', 'token_unlock_assets', 'monitoring_events']);

interface HistoryTable {
  name: string;
  key: string[];
  columns: string[];
}

/** Tables with a 0013 history trigger: their columns in order, and their key columns in key order. */
const LIST_SQL: Record<Dialect, string> = {
  sqlite: `select t.tbl_name as "table", c.name as "column", c.pk as pk
    from sqlite_master t join pragma_table_info(t.tbl_name) c
    where t.type = 'trigger' and t.name = t.tbl_name || '_keep_history'
    order by t.tbl_name, c.cid`,
  postgres: `select c.relname as "table", a.attname as "column",
      coalesce(array_position(k.conkey, a.attnum), 0) as pk
    from pg_trigger g
      join pg_class c on c.oid = g.tgrelid
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      left join pg_constraint k on k.conrelid = c.oid and k.contype = 'p'
    where c.relnamespace = current_schema()::regnamespace and g.tgname = c.relname || '_keep_history'
    order by c.relname, a.attnum`,
};

async function historyTables(db: Kysely<any>, dialect: Dialect): Promise<HistoryTable[]> {
  const { rows } = await sql.raw<{ table: string; column: string; pk: number }>(LIST_SQL[dialect]).execute(db);
  const tables = new Map<string, { columns: string[]; key: [number, string][] }>();
  for (const r of rows) {
    const t = tables.get(r.table) ?? { columns: [], key: [] };
    if (Number(r.pk) > 0) t.key.push([Number(r.pk), r.column]);
    if (!BOOKKEEPING.has(r.column)) t.columns.push(r.column);
    tables.set(r.table, t);
  }
  return [...tables].map(([name, t]) => ({ name, columns: t.columns, key: t.key.sort((a, b) => a[0] - b[0]).map(([, k]) => k) }));
}

const JSON_OBJECT: Record<Dialect, string> = { sqlite: 'json_object', postgres: 'jsonb_build_object' };
const AS_TEXT: Record<Dialect, (e: string) => string> = { sqlite: (e) => `cast(${e} as text)`, postgres: (e) => `${e}::text` };

function insertSql(t: HistoryTable, dialect: Dialect): string {
  const rowKey = t.key.map((k) => AS_TEXT[dialect](`old.${k}`)).join(` || '|' || `);
  const typedRow = `${JSON_OBJECT[dialect]}(${t.columns.map((c) => `'${c}', old.${c}`).join(', ')})`;
  return `insert into row_history (table_name, row_key, raw, typed_row, row_hash, first_seen_at, valid_from, valid_to, change, run_id, ended_by_run_id)
    values ('${t.name}', ${rowKey}, old.raw, ${typedRow}, old.row_hash, old.first_seen_at, old.synced_at,
      coalesce(new.deleted_at, new.synced_at), case when new.deleted_at is not null then 'deleted' else 'updated' end,
      (select max(s.id) from sync_runs s where s.started_at <= old.synced_at),
      (select max(s.id) from sync_runs s where s.started_at <= coalesce(new.deleted_at, new.synced_at)))`;
}

/** The trigger again with the new insert: on PostgreSQL its function is replaced, the trigger kept. */
const REWRITE: Record<Dialect, (t: HistoryTable, insert: string) => string[]> = {
  sqlite: (t, insert) => [
    `drop trigger ${t.name}_keep_history`,
    `create trigger ${t.name}_keep_history after update on ${t.name} for each row
  when old.deleted_at is null and (new.deleted_at is not null or old.row_hash is not new.row_hash) and coalesce((select enabled from history_settings where table_name = '${t.name}'), 1) = 1
begin
  ${insert};
end`,
  ],
  postgres: (t, insert) => [
    `create or replace function ${t.name}_keep_history() returns trigger language plpgsql as $$
begin
  if coalesce((select enabled from history_settings where table_name = '${t.name}'), true) then
    ${insert};
  end if;
  return null;
end $$`,
  ],
};

export async function up(db: Kysely<any>, t: ColumnTypes, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('row_history').addColumn('typed_row', t.json).execute();
  for (const table of (await historyTables(db, dialect)).filter((h) => !LIFTED_FROM_RAW.has(h.name))) {
    for (const statement of REWRITE[dialect](table, insertSql(table, dialect))) await sql.raw(statement).execute(db);
  }
}
