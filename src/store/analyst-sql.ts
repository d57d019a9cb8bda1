// The analyst-SQL dialect: the fragments of SQL that the views, the history triggers and the comments of
// schema/ need, one object per dialect folder (sqlite/sqlite-analyst-sql.ts, postgres/postgres-analyst-sql.ts),
// as Kysely's dialects give their adapters. schema/ asks this object and never tests which store it is on.
// Times come out as one representation per store: ISO 8601 UTC text with milliseconds on SQLite (what
// JavaScript's toISOString writes), `timestamptz` / `date` on PostgreSQL.
// Which object a dialect has: dialects.ts.
import type { Kysely } from 'kysely';
import type { TableInfo } from './types.js';

/** What a view column holds, the same on both stores (PostgreSQL type / SQLite storage in comments). */
export type ValueKind =
  | 'text'
  | 'integer' // bigint / integer
  | 'double' // double precision / real
  | 'boolean' // boolean / 0-1 integer
  | 'json' // jsonb / JSON text
  | 'timestamp' // timestamptz / ISO 8601 UTC text
  | 'date'; // date / YYYY-MM-DD text

/** What a JSON value is, as a test on `jsonType`'s result (`= 'number'`, `in ('array', 'object')`). */
export type JsonTypeTests = Readonly<Record<'string' | 'number' | 'boolean' | 'container', string>>;

/** An AFTER UPDATE trigger per row: its name, table, when it fires, a guard read inside, and its statement. */
export interface RowTrigger {
  name: string;
  table: string;
  when: string;
  guard: string;
  statement: string;
}

/** A table's column names in table order and its primary key's in key order. */
export interface TableColumns {
  name: string;
  columns: string[];
  key: string[];
}

export interface AnalystSql {
  /** The type name of the JSON value at a dotted path of a JSON column `doc`. */
  jsonType(doc: string, path: string): string;
  /** The value at a path as a scalar (text on PostgreSQL). */
  jsonScalar(doc: string, path: string): string;
  /** The value at a path as JSON (an array or object kept whole). */
  jsonValue(doc: string, path: string): string;
  readonly isJson: JsonTypeTests;
  /** Casts of a JSON scalar: to double, to integer (rounded), to boolean. */
  toDouble(value: string): string;
  toInteger(value: string): string;
  toBoolean(value: string): string;
  /** A time from Unix seconds. */
  timeFromUnix(seconds: string): string;
  /** A time / a date from ISO text, null unless `isText` holds and the text has the form. */
  timeFromText(value: string, isText: string): string;
  dateFromText(value: string, isText: string): string;
  /** A stored time column in the store's one form. */
  time(expr: string): string;
  /** A stored `YYYY-MM-DD` text column as the store's date. */
  dateColumn(expr: string): string;
  /**
   * The values of `value` over the rows of `from` (a FROM clause with its WHERE), in `orderBy` order, joined
   * by commas: a scalar subquery (SQLite before 3.44 has no ordered aggregate).
   */
  orderedList(value: string, from: string, orderBy: string): string;
  /**
   * A view's query, `select`, with each column of the declared type a tool reads (PRAGMA table_info,
   * information_schema.columns) for its kind: the columns by name, in the view's order.
   */
  typedView(select: string, columns: readonly { name: string; kind: ValueKind }[]): string;
  /**
   * The UNION ALL of `selects` (each giving `columns` in order) as a query to read in a FROM clause, whose
   * columns read as they are keep the declared type of their kind.
   */
  unionSource(selects: readonly string[], columns: readonly { name: string; kind: ValueKind }[]): string;
  /**
   * How a versions view's UNION ALL of live rows and kept versions gives their values: `carried`, every
   * value passed through it (PostgreSQL reads only what a query uses); `looked-up`, only indexed values and
   * each row's rowid passed, every other value read by rowid where a column asks for it (SQLite before 3.42
   * computes every value of a UNION ALL to count it: a count then reads indexes alone).
   */
  readonly versionValues: 'carried' | 'looked-up';
  /**
   * A stored JSON document (a column) made once per row for the lifts that read it above a subquery.
   * PostgreSQL detoasts a stored jsonb again for every expression that reads it: a monitoring event's raw
   * (5 KB, compressed out of line) read by 50 lifts took 0.24 s for 100 versions, its copy 0.03 s.
   */
  jsonOnce(doc: string): string;
  /** The time now, in the store's form. */
  readonly now: string;
  /** Seconds (a double) from one time to another (both in the store's form), or to now when `to` is not given. */
  secondsBetween(from: string, to?: string): string;
  /** The UTC calendar day of a time (already in the store's form), and the Monday starting its ISO week. */
  dayOf(expr: string): string;
  weekOf(expr: string): string;
  /** Type names for casts (a bare decimal literal is numeric on PostgreSQL, which pg reads as text). */
  readonly doubleType: string;
  readonly integerType: string;
  /**
   * The columns of `table` read back, typed as the table types them, from a JSON object of them (`doc`,
   * as a history trigger keeps a row): a join to add after the FROM item that holds `doc`, and each column.
   */
  typedRow(table: string, doc: string, alias: string): { join: string; column(name: string): string };
  /**
   * A JSON object of named values (`[name, expression]` pairs), as a history trigger keeps a row's columns:
   * at most 50 pairs (PostgreSQL passes a function at most 100 arguments).
   */
  jsonObject(entries: readonly (readonly [string, string])[]): string;
  /** A value as text (a key column). */
  asText(expr: string): string;
  /** A boolean setting read by a subquery, true when there is none. */
  onUnlessOff(setting: string): string;
  /** The statements that create an AFTER UPDATE row trigger. */
  rowTrigger(t: RowTrigger): string[];
  /** The statements that drop what rowTrigger made (the trigger, and on PostgreSQL its function). */
  dropRowTrigger(t: Pick<RowTrigger, 'name' | 'table'>): string[];
  /** The triggers on the current schema's tables. */
  listTriggers(db: Kysely<unknown>): Promise<{ name: string; table: string }[]>;
  /** Runs several statements (one round trip where the driver allows). */
  runAll(db: Kysely<unknown>, statements: readonly string[]): Promise<void>;
  /** The tables of the current schema, read on the given connection (or transaction). */
  listTables(db: Kysely<unknown>): Promise<TableInfo[]>;
  /** Only the tables' column names and keys, in one catalog query: read on every open (listTables asks more, slower). */
  listColumns(db: Kysely<unknown>): Promise<TableColumns[]>;
  /** Null-safe inequality (`a <op> b` is true when exactly one is null). */
  readonly distinctFrom: string;
  /**
   * Where the store keeps COMMENT ON (the data dictionary) on its tables and views: the tables and views
   * of the current schema with their columns, those a comment can name. Absent where it keeps none.
   */
  commentable?(db: Kysely<unknown>): Promise<Map<string, Set<string>>>;
}

/** TableColumns from a catalog's rows (one per column, in table order; `pk` its place in the key, 0 if none). */
export function groupColumns(rows: readonly { table: string; column: string; pk: number | string }[]): TableColumns[] {
  const tables = new Map<string, { columns: string[]; key: [number, string][] }>();
  for (const r of rows) {
    const t = tables.get(r.table) ?? { columns: [], key: [] };
    t.columns.push(r.column);
    if (Number(r.pk) > 0) t.key.push([Number(r.pk), r.column]);
    tables.set(r.table, t);
  }
  return [...tables].map(([name, t]) => ({ name, columns: t.columns, key: t.key.sort((a, b) => a[0] - b[0]).map(([, k]) => k) }));
}
