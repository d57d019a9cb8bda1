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
}

const BOOKKEEPING: readonly ViewColumn[] = [
  { name: 'first_seen_at', kind: 'timestamp', description: 'When the mirror first stored this record.' },
  { name: 'synced_at', kind: 'timestamp', description: 'When the mirror last wrote this record (its current content dates from then).' },
];

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
  const versions: ViewSpec = {
    name: `${o.name}_history`,
    description:
      `Every kept version of ${o.table}: the current live rows (valid_to null) and the previous versions ` +
      `kept in row_history. As of a time T: valid_from <= T and (valid_to is null or valid_to > T).`,
    columns: [
      ...o.columns,
      { name: 'valid_from', kind: 'timestamp', description: 'When this version was written.' },
      { name: 'valid_to', kind: 'timestamp', description: 'When it was replaced or deleted; null for the current version.' },
      { name: 'change', kind: 'text', description: "What ended this version: 'updated', 'deleted', or null for the current version." },
      { name: 'run_id', kind: 'integer', description: 'The sync run in progress when this version was written (sync_runs.id).' },
    ],
    sql: (d) =>
      `select\n  ${selectList(o.columns, d, 'r')},\n  ${isoColumn(d, 'r.synced_at')} as valid_from, null as valid_to, null as change,\n` +
      `  (select max(s.id) from sync_runs s where s.started_at <= r.synced_at) as run_id\n` +
      `from ${o.table} r\nwhere r.deleted_at is null\n` +
      `union all\n` +
      `select\n  ${selectList(o.columns, d, 'r', true)},\n  ${isoColumn(d, 'r.valid_from')}, ${isoColumn(d, 'r.valid_to')}, r.change, r.run_id\n` +
      `from row_history r\nwhere r.table_name = '${o.table}'`,
  };
  return [live, versions];
}
