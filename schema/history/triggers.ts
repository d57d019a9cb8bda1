// The history trigger of each mirrored table. It fires after an UPDATE that changes the row's content
// (row_hash) or soft-deletes it, unless history_settings turns the table off (no row: on; read when it
// fires, so the settings outlive a remade trigger), and copies the previous version into row_history
// with its validity, the runs that wrote and ended it (the run in progress at each time: the store's
// adapters need not know about history) and its own columns (typed_row, read back by the versions
// views). A row that comes back after a soft delete adds nothing: its last version was kept when it was
// deleted. The triggers are a repeatable object (schema/repeatables.ts), made from the tables as the
// migrations left them, so a column a migration adds is kept once they are made again. The SQL of each
// store comes from its analyst-SQL dialect (src/store/analyst-sql.ts).
import type { Kysely } from 'kysely';
import { analystSql } from '../../src/store/dialects.js';
import { hashDiffersSql } from '../../src/store/changed-row.js';
import type { Dialect } from '../../src/store/types.js';

export type HistoryDialect = Dialect;

export interface MirroredTable {
  name: string;
  key: string[];
  /** The table's own columns, in table order: not raw and the bookkeeping. */
  columns: string[];
}

const MIRROR_COLUMNS = ['raw', 'row_hash', 'first_seen_at', 'synced_at', 'deleted_at'];

/** Tables with the mirrored columns (raw, row_hash, sync times) and a primary key, read from the database. */
export async function mirroredTables(db: Kysely<unknown>, d: HistoryDialect): Promise<MirroredTable[]> {
  const tables = await analystSql(d).listColumns(db);
  return tables
    .filter((t) => t.key.length > 0 && MIRROR_COLUMNS.every((c) => t.columns.includes(c)))
    .map((t) => ({ name: t.name, key: t.key, columns: t.columns.filter((c) => !MIRROR_COLUMNS.includes(c)) }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

const triggerOf = (table: string) => ({ name: `${table}_keep_history`, table });

/**
 * Tables whose versions view lifts every column from the kept raw (the catalog says which): their own
 * columns would only repeat raw (measured: an assets version's columns are as large as its raw, doubling
 * its history), so their versions keep no typed_row.
 */
export type LiftedFromRaw = ReadonlySet<string>;

export function historyTriggerSql(table: MirroredTable, d: HistoryDialect, lifted: LiftedFromRaw): string[] {
  const sqlOf = analystSql(d);
  const name = table.name;
  const rowKey = table.key.map((k) => sqlOf.asText(`old.${k}`)).join(` || '|' || `);
  const typedRow = lifted.has(name) ? 'null' : sqlOf.jsonObject(table.columns.map((c) => [c, `old.${c}`]));
  const insert = `insert into row_history (table_name, row_key, raw, typed_row, row_hash, first_seen_at, valid_from, valid_to, change, run_id, ended_by_run_id)
    values ('${name}', ${rowKey}, old.raw, ${typedRow}, old.row_hash, old.first_seen_at, old.synced_at,
      coalesce(new.deleted_at, new.synced_at), case when new.deleted_at is not null then 'deleted' else 'updated' end,
      (select max(s.id) from sync_runs s where s.started_at <= old.synced_at),
      (select max(s.id) from sync_runs s where s.started_at <= coalesce(new.deleted_at, new.synced_at)))`;
  return sqlOf.rowTrigger({
    ...triggerOf(name),
    when: `old.deleted_at is null and (new.deleted_at is not null or ${hashDiffersSql(sqlOf, 'old', 'new')})`,
    guard: sqlOf.onUnlessOff(`(select enabled from history_settings where table_name = '${name}')`),
    statement: insert,
  });
}

/** The statements of every mirrored table's trigger, as the tables are now: the repeatable's definition. */
export async function historyTriggersSql(db: Kysely<unknown>, d: HistoryDialect, lifted: LiftedFromRaw): Promise<string[]> {
  return (await mirroredTables(db, d)).flatMap((t) => historyTriggerSql(t, d, lifted));
}

/** Drops every history trigger there is (those of tables no longer mirrored too). */
export async function dropHistoryTriggers(db: Kysely<unknown>, d: HistoryDialect): Promise<void> {
  const sqlOf = analystSql(d);
  const found = (await sqlOf.listTriggers(db)).filter((t) => t.name === triggerOf(t.table).name);
  await sqlOf.runAll(
    db,
    found.flatMap((t) => sqlOf.dropRowTrigger(t)),
  );
}

/** Drops the history triggers and makes one for each mirrored table, with its columns of now. */
export async function recreateHistoryTriggers(db: Kysely<unknown>, d: HistoryDialect, lifted: LiftedFromRaw): Promise<void> {
  await dropHistoryTriggers(db, d);
  await analystSql(d).runAll(db, await historyTriggersSql(db, d, lifted));
}

/** Whether a mirrored table has no history trigger (one dropped by hand): writes to it would keep no history. */
export async function historyTriggerMissing(db: Kysely<unknown>, d: HistoryDialect): Promise<boolean> {
  const present = new Set((await analystSql(d).listTriggers(db)).map((t) => t.name));
  return (await mirroredTables(db, d)).some((t) => !present.has(triggerOf(t.name).name));
}
