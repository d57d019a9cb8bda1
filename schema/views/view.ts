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

/**
 * What the views are made for, handed in by whoever makes them (src/mirror-schema/, from the catalog): schema/
 * imports nothing above the store, so that a migration (frozen) can never reach code that changes later.
 */
export interface ViewCatalog {
  /** Each table the streams fill, once, and whether its live rows are the ones not soft-deleted. */
  streamTables: readonly { table: string; softDeleted: boolean }[];
}

export interface ViewSpec {
  name: string;
  description: string;
  columns: readonly ViewColumn[];
  sql(d: ViewDialect, catalog: ViewCatalog): string;
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
  /**
   * How the live view reads the value from the table's own columns, where the writer stored it lifted
   * from the same field of raw (the catalog's mapping): a dashboard's filter, sort or group over live
   * rows then parses no raw per row (a monitoring event's raw is ~5 KB; SQLite before 3.45 parses it
   * again for every json_extract). The versions view still lifts `from` raw: kept versions keep raw.
   */
  live?: Lift;
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

/**
 * One column of a version row (alias `u` in a versions view): as a live row (alias `r`) gives it and as a
 * previous version (row_history `h`) does; without `previous`, the table's own column of that name as the
 * previous version kept it (read back from typed_row). `indexed`: both are read from an index (a key, a
 * constant), so a count may carry it.
 */
export interface VersionSource {
  name: string;
  kind: ValueKind;
  live: string;
  previous?: string;
  indexed?: boolean;
}

/**
 * Every kept version of `table` as one FROM item: its live rows and its previous versions kept in row_history,
 * each with the `sources` columns, then the version's validity and runs as stored (the view normalises them).
 * How the values pass the UNION ALL is the dialect's (AnalystSql.versionValues): SQLite before 3.42 computes
 * every value of a UNION ALL to count it, so there only what indexes hold passes (the live rows through
 * their `<table>_live_keys` index, the versions through row_history_row) and the rest is read by rowid.
 * `h.typed_row` holds a previous version's own columns (null for versions kept before migration 0039).
 */
export function versionRows(d: ViewDialect, table: string, sources: readonly VersionSource[]): string {
  const typed = d.typedRow(table, 'h.typed_row', 'p');
  const bookkeeping: readonly (readonly [string, ValueKind, string, string, boolean])[] = [
    ['valid_from', 'text', 'r.synced_at', 'h.valid_from', false],
    ['valid_to', 'text', 'null', 'h.valid_to', true],
    ['change', 'text', 'null', 'h.change', false],
    ['run_id', 'integer', 'null', 'h.run_id', false],
    ['ended_by_run_id', 'integer', 'null', 'h.ended_by_run_id', false],
    ['is_current', 'integer', '1', '0', true],
  ];
  const all: VersionSource[] = [
    ...sources,
    ...bookkeeping.map(([name, kind, live, previous, indexed]) => ({ name, kind, live, previous, indexed })),
  ];
  const previousOf = (c: VersionSource) => c.previous ?? typed.column(c.name);
  if (d.versionValues === 'looked-up') return lookedUpVersions(d, table, all, previousOf);
  return d.unionSource(
    [
      `select ${all.map((c) => `${c.live} as ${c.name}`).join(', ')}\n  from ${table} r where r.deleted_at is null`,
      `select ${all.map((c) => `${previousOf(c)} as ${c.name}`).join(', ')}\n  from row_history h${typed.join && all.some((c) => !c.previous) ? ` ${typed.join}` : ''} where h.table_name = '${table}'`,
    ],
    all,
  );
}

/** versionRows where only indexed values pass the UNION ALL (`v`) with each row's rowid; the others are read by it. */
function lookedUpVersions(d: ViewDialect, table: string, all: readonly VersionSource[], previousOf: (c: VersionSource) => string): string {
  const passed = [...all.filter((c) => c.indexed), { name: 'version_rowid', kind: 'integer' as const, live: 'r.rowid', previous: 'h.id' }];
  const union = d.unionSource(
    [
      `select ${passed.map((c) => `${c.live} as ${c.name}`).join(', ')}\n  from ${table} r where r.deleted_at is null`,
      `select ${passed.map((c) => `${c.previous} as ${c.name}`).join(', ')}\n  from row_history h where h.table_name = '${table}'`,
    ],
    passed,
  );
  const live = (c: VersionSource) => (/\br\./.test(c.live) ? `(select ${c.live} from ${table} r where r.rowid = v.version_rowid)` : c.live);
  const read = (c: VersionSource) =>
    c.indexed
      ? `v.${c.name}`
      : `case when v.is_current = 1 then ${live(c)} else (select ${previousOf(c)} from row_history h where h.id = v.version_rowid) end`;
  return d.typedView(`select ${all.map((c) => `${read(c)} as ${c.name}`).join(',\n  ')}\nfrom (\n${union}\n) v`, all);
}

/**
 * VERSION_COLUMNS over a version row `u` (versionRows): a live row's run is the last run started before it
 * was written. (A column a live row gives as null is computed, not read as it is: on SQLite only a column
 * a table gives keeps its declared type through the UNION ALL.)
 */
export function versionColumns(d: ViewDialect): string {
  const ofPrevious = (column: string) => `case when u.is_current = 1 then null else u.${column} end`;
  return (
    `${isoColumn(d, 'u.valid_from')} as valid_from, ${isoColumn(d, 'u.valid_to')} as valid_to, ${ofPrevious('change')} as change,\n` +
    '  case when u.is_current = 1 then (select max(s.id) from sync_runs s where s.started_at <= u.valid_from) else u.run_id end as run_id,\n' +
    `  ${ofPrevious('ended_by_run_id')} as ended_by_run_id`
  );
}

function selectList(columns: readonly LiftedColumn[], d: ViewDialect, alias: string, live = false): string {
  const read = (c: LiftedColumn) => (c.column ? `${alias}.${c.column}` : live && c.live ? c.live(d, alias) : c.from(d, alias));
  return columns.map((c) => `${read(c)} as ${c.name}`).join(',\n  ');
}

/**
 * What a versions view's lifts read from a version row: the key column (a live row's own, a kept version's
 * row_key: the same value, stored before raw and so read without raw's overflow pages), the table's own
 * columns (tableColumns: a kept version's from typed_row), and raw when a lift reads it.
 */
function versionSources(o: LiftedViewOptions, d: ViewDialect): VersionSource[] {
  const kind = (name: string) => o.columns.find((c) => c.name === name)?.kind ?? 'text';
  const own = new Set(o.tableColumns ?? []);
  const keys = o.columns.filter((c) => c.column && !own.has(c.column));
  if (keys.length > 1) throw new Error(`${o.name}: a versions view reads one key column (row_history.row_key)`);
  const keyOf = (c: LiftedColumn) => (c.kind === 'integer' ? d.toInteger('h.row_key') : 'h.row_key');
  const readsRaw = o.columns.some((c) => !c.column && c.from(d, 'u').includes('u.raw'));
  return [
    ...keys.map((c) => ({ name: c.column!, kind: c.kind, live: `r.${c.column}`, previous: keyOf(c), indexed: true })),
    ...[...own].map((name) => ({ name, kind: kind(name), live: `r.${name}` })),
    ...(readsRaw ? [{ name: 'raw', kind: 'json' as const, live: d.jsonOnce('r.raw'), previous: d.jsonOnce('h.raw') }] : []),
  ];
}

/** The live rows of one mirrored table with typed columns, and optionally its versions view. */
export function liftedView(o: LiftedViewOptions): ViewSpec[] {
  const live: ViewSpec = {
    name: o.name,
    description: o.description,
    columns: [...o.columns, ...BOOKKEEPING],
    sql: (d) =>
      `select\n  ${selectList(o.columns, d, 'r', true)},\n  ${isoColumn(d, 'r.first_seen_at')} as first_seen_at,\n  ${isoColumn(d, 'r.synced_at')} as synced_at\n` +
      `from ${o.table} r\nwhere r.deleted_at is null`,
  };
  if (!o.history) return [live];
  const sql = (d: ViewDialect) =>
    `select\n  ${selectList(o.columns, d, 'u')},\n  ${versionColumns(d)}\nfrom (\n${versionRows(d, o.table, versionSources(o, d))}\n) u`;
  const versions: ViewSpec = {
    name: `${o.name}_history`,
    versionsOf: o.table,
    description:
      `Every kept version of ${o.table}: the current live rows (valid_to null) and the previous versions ` +
      `kept in row_history. As of a time T: valid_from <= T and (valid_to is null or valid_to > T).`,
    columns: [...o.columns, ...VERSION_COLUMNS],
    sql,
  };
  return [live, versions];
}
