// A view is data: its name, what it is for, its columns (kind and meaning) and its SQL per dialect. The
// migrations create views from these, `ds-mirror schema` and the README describe them, exports type
// their columns from them. Views over one mirrored table are built by `liftedView` from lifts of `raw`;
// the same lifts give the table's versions view (`<name>_history`) over the kept history.
import type { Lift, ValueKind, ViewDialect } from './lift.js';
import { isoColumn } from './lift.js';

export interface ViewColumn {
  name: string;
  kind: ValueKind;
  description: string;
}

export interface ViewSpec {
  name: string;
  description: string;
  columns: readonly ViewColumn[];
  sql(d: ViewDialect): string;
  /** A view that is a UNION ALL: its branches (sql joins them), each typed on its own (analyst-sql.ts, typedView). */
  branches?(d: ViewDialect): string[];
  /** For a versions view: the mirrored table whose versions it shows. */
  versionsOf?: string;
}

export interface LiftedColumn extends ViewColumn {
  from: Lift;
  /**
   * The table's own column holding the same value (its key): the live view reads it, so joins on the
   * view use the table's index; the history branch, which has only raw, uses `from`.
   */
  column?: string;
}

export interface LiftedViewOptions {
  name: string;
  description: string;
  /** The mirrored table read (live rows only). */
  table: string;
  columns: readonly LiftedColumn[];
  /** Also build `<name>_history`: every kept version with valid_from / valid_to. */
  history?: boolean;
  /** The table's own columns that lifts read (lift.column): previous versions read them from row_history.typed_row. */
  tableColumns?: readonly string[];
}

const BOOKKEEPING: readonly ViewColumn[] = [
  { name: 'first_seen_at', kind: 'timestamp', description: 'When the mirror first stored this record.' },
  { name: 'synced_at', kind: 'timestamp', description: 'When the mirror last wrote this record (its current content dates from then).' },
];

/** What every versions view adds to a version's columns. */
export const VERSION_COLUMNS: readonly ViewColumn[] = [
  { name: 'valid_from', kind: 'timestamp', description: 'When this version was written.' },
  { name: 'valid_to', kind: 'timestamp', description: 'When it was replaced or deleted; null for the current version.' },
  { name: 'change', kind: 'text', description: "What ended this version: 'updated', 'deleted', or null for the current version." },
  { name: 'run_id', kind: 'integer', description: 'The sync run in progress when this version was written (sync_runs.id).' },
  {
    name: 'ended_by_run_id',
    kind: 'integer',
    description: 'The sync run that replaced or deleted this version (sync_runs.id); null for the current version.',
  },
];

/** VERSION_COLUMNS of a live row (alias `r` of its table) and of a previous version (a row of previousVersions). */
export function currentVersion(d: ViewDialect, r: string): string {
  return (
    `${isoColumn(d, `${r}.synced_at`)} as valid_from, null as valid_to, null as change,\n` +
    `  (select max(s.id) from sync_runs s where s.started_at <= ${r}.synced_at) as run_id, null as ended_by_run_id`
  );
}
export function previousVersion(d: ViewDialect, r: string): string {
  return (
    `${isoColumn(d, `${r}.valid_from`)} as valid_from, ${isoColumn(d, `${r}.valid_to`)} as valid_to, ` +
    `${r}.change as change, ${r}.run_id as run_id, ${r}.ended_by_run_id as ended_by_run_id`
  );
}

/**
 * The previous versions of `table` kept in row_history, as rows with the table's own `columns` (typed as
 * the table types them, read back from typed_row: null for versions kept before migration 0039), raw,
 * and each version's validity and runs.
 */
export function previousVersions(d: ViewDialect, table: string, columns: readonly string[]): string {
  const typed = d.typedRow(table, 'h.typed_row', 'p');
  return (
    `select ${columns.map((c) => `${typed.column(c)} as ${c}`).join(', ')},\n` +
    `    h.raw, h.valid_from, h.valid_to, h.change, h.run_id, h.ended_by_run_id\n` +
    `  from row_history h${typed.join ? ` ${typed.join}` : ''}\n  where h.table_name = '${table}'`
  );
}

function selectList(columns: readonly LiftedColumn[], d: ViewDialect, alias: string, fromRaw = false): string {
  return columns.map((c) => `${c.column && !fromRaw ? `${alias}.${c.column}` : c.from(d, alias)} as ${c.name}`).join(',\n  ');
}

/** The live rows of one mirrored table with typed columns, and optionally its versions view. */
export function liftedView(o: LiftedViewOptions): ViewSpec[] {
  const live: ViewSpec = {
    name: o.name,
    description: o.description,
    columns: [...o.columns, ...BOOKKEEPING],
    sql: (d) =>
      `select\n  ${selectList(o.columns, d, 'r')},\n  ${isoColumn(d, 'r.first_seen_at')} as first_seen_at,\n  ${isoColumn(d, 'r.synced_at')} as synced_at\n` +
      `from ${o.table} r\nwhere r.deleted_at is null`,
  };
  if (!o.history) return [live];
  const branches = (d: ViewDialect) => [
    `select\n  ${selectList(o.columns, d, 'r')},\n  ${currentVersion(d, 'r')}\nfrom ${o.table} r\nwhere r.deleted_at is null`,
    `select\n  ${selectList(o.columns, d, 'r', true)},\n  ${previousVersion(d, 'r')}\n` +
      (o.tableColumns
        ? `from (${previousVersions(d, o.table, o.tableColumns)}) r`
        : `from row_history r\nwhere r.table_name = '${o.table}'`),
  ];
  const versions: ViewSpec = {
    name: `${o.name}_history`,
    versionsOf: o.table,
    description:
      `Every kept version of ${o.table}: the current live rows (valid_to null) and the previous versions ` +
      `kept in row_history. As of a time T: valid_from <= T and (valid_to is null or valid_to > T).`,
    columns: [...o.columns, ...VERSION_COLUMNS],
    branches,
    sql: (d) => branches(d).join('\nunion all\n'),
  };
  return [live, versions];
}
