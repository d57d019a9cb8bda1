// SQLite's analyst-SQL fragments (the contract: analyst-sql.ts). JSON is text read with json_type /
// json_extract; times are ISO 8601 UTC text with milliseconds, as toISOString writes them, so text
// order is time order.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../database.js';
import { groupColumns, type AnalystSql, type ValueKind } from '../analyst-sql.js';
import { bareColumns } from './bare-columns.js';
import { sqliteTables } from './sqlite-tables.js';

const ISO_FORMAT = `'%Y-%m-%dT%H:%M:%fZ'`;
const jsonPath = (path: string) => `'$.${path}'`;

/**
 * The declared type of each kind, and the column of view_column_types (migration 0041) that has it. Times
 * and dates are TEXT: SQLite 3.44 and later report a view column that mixes a DATETIME or DATE (numeric
 * affinity) branch with text values as BLOB, and TIMESTAMP reads as a time of day in Metabase.
 */
const DECLARED: Readonly<Record<ValueKind, readonly [column: string, cast: string]>> = {
  text: ['text_value', 'text'],
  json: ['text_value', 'text'],
  timestamp: ['text_value', 'text'],
  date: ['text_value', 'text'],
  integer: ['integer_value', 'integer'],
  double: ['real_value', 'real'],
  boolean: ['boolean_value', 'integer'],
};

/**
 * SQLite gives a view column a declared type only when it reads a table's column, directly or as the
 * first column of a scalar subquery (in a compound subquery, of its last SELECT before 3.44). A computed
 * column is therefore a scalar subquery: its value cast to its kind's storage class, then a row of
 * view_column_types (always empty), whose column carries the type. A column read from a table as it is
 * stays bare, so that a filter or join on it still uses the table's index (but a boolean: the tables keep
 * booleans in integer columns).
 *
 * Why not a UNION ALL whose first branch reads view_column_types: SQLite before 3.42 computes every column
 * of every row of a compound view to count it (3.40 took 0.8 s to count 20,000 assets: bench/RESULTS.md),
 * while a plain SELECT is flattened into the count, which then reads the table alone. A scalar subquery is
 * evaluated only when its column is read.
 */
function typedColumn(value: string, kind: ValueKind): string {
  const [column, cast] = DECLARED[kind];
  return `(select cast(${value} as ${cast}) union all select t.${column} from view_column_types t)`;
}

function typedView(select: string, columns: readonly { name: string; kind: ValueKind }[]): string {
  const bare = bareColumns(select);
  const list = columns.map((c) =>
    bare.has(c.name) && c.kind !== 'boolean' ? `q."${c.name}"` : `${typedColumn(`q."${c.name}"`, c.kind)} as "${c.name}"`,
  );
  return `select ${list.join(', ')} from (\n${select}\n) q`;
}

/**
 * The UNION ALL of `selects`, each cast to its kinds' storage classes (but a column read from a table as it
 * is), then an empty branch reading view_column_types. A column of a compound FROM item takes its declared
 * type from the last branch before SQLite 3.44, and from the first with every branch of one storage class
 * from 3.44 on: both are the kind's.
 */
function unionSource(selects: readonly string[], columns: readonly { name: string; kind: ValueKind }[]): string {
  const cast = (select: string) => {
    const bare = bareColumns(select);
    return columns.map((c) => (bare.has(c.name) ? `q.${c.name}` : `cast(q.${c.name} as ${DECLARED[c.kind][1]}) as ${c.name}`)).join(', ');
  };
  const typed = columns.map((c) => `t.${DECLARED[c.kind][0]} as ${c.name}`).join(', ');
  return [...selects.map((s) => `select ${cast(s)} from (\n${s}\n) q`), `select ${typed} from view_column_types t`].join('\nunion all\n');
}

export const SQLITE_ANALYST_SQL: AnalystSql = {
  jsonType: (doc, path) => `json_type(${doc}, ${jsonPath(path)})`,
  jsonScalar: (doc, path) => `json_extract(${doc}, ${jsonPath(path)})`,
  jsonValue: (doc, path) => `json_extract(${doc}, ${jsonPath(path)})`,
  isJson: { string: `= 'text'`, number: `in ('integer', 'real')`, boolean: `in ('true', 'false')`, container: `in ('array', 'object')` },
  toDouble: (v) => `cast(${v} as real)`,
  toInteger: (v) => `cast(round(${v}) as integer)`,
  // json_extract gives JSON true/false as 1/0 already.
  toBoolean: (v) => v,
  timeFromUnix: (s) => `strftime(${ISO_FORMAT}, ${s}, 'unixepoch')`,
  // strftime and date read any ISO form (with or without milliseconds, with an offset) and give null otherwise.
  timeFromText: (v, isText) => `strftime(${ISO_FORMAT}, case when ${isText} then ${v} end)`,
  dateFromText: (v, isText) => `date(case when ${isText} then ${v} end)`,
  time: (e) => `strftime(${ISO_FORMAT}, ${e})`,
  dateColumn: (e) => e,
  // group_concat takes the rows as the ordered subquery gives them (SQLite does not flatten an ordered
  // subquery into an aggregate); `group_concat(x order by ...)` needs 3.44.
  orderedList: (value, from, orderBy) => `(select group_concat(x, ',') from (select ${value} as x ${from} order by ${orderBy}))`,
  typedView,
  unionSource,
  versionValues: 'looked-up',
  jsonOnce: (doc) => doc,
  now: `strftime(${ISO_FORMAT}, 'now')`,
  secondsBetween: (from, to = "'now'") => `((julianday(${to}) - julianday(${from})) * 86400.0)`,
  dayOf: (e) => `date(${e})`,
  weekOf: (e) => `date(${e}, '-6 days', 'weekday 1')`,
  doubleType: 'real',
  integerType: 'integer',
  // SQLite's values carry their own type: a value read back from JSON is the one the row held.
  typedRow: (_table, doc) => ({ join: '', column: (name) => `json_extract(${doc}, ${jsonPath(name)})` }),
  jsonObject: (entries) => `json_object(${entries.map(([name, e]) => `'${name}', ${e}`).join(', ')})`,
  asText: (e) => `cast(${e} as text)`,
  onUnlessOff: (setting) => `coalesce(${setting}, 1) = 1`,
  rowTrigger: (t) => [
    `create trigger ${t.name} after update on ${t.table} for each row
  when ${t.when} and ${t.guard}
begin
  ${t.statement};
end`,
  ],
  dropRowTrigger: (t) => [`drop trigger if exists ${t.name}`],
  listTriggers: async (db) =>
    (await sql<{ name: string; table: string }>`select name, tbl_name as "table" from sqlite_master where type = 'trigger'`.execute(db))
      .rows,
  // The driver prepares one statement at a time.
  async runAll(db, statements) {
    for (const statement of statements) await sql.raw(statement).execute(db);
  },
  listTables: (db) => sqliteTables(db as Kysely<Database>),
  listColumns: async (db) =>
    groupColumns(
      (
        await sql<{ table: string; column: string; pk: number }>`
          select m.name as "table", c.name as "column", c.pk as pk
          from sqlite_master m join pragma_table_info(m.name) c
          where m.type = 'table' and m.name not like 'sqlite_%'
          order by m.name, c.cid`.execute(db)
      ).rows,
    ),
  distinctFrom: 'is not',
};
