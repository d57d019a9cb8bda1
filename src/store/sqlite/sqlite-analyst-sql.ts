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
 * SQLite gives a view column a declared type only when it reads a table's column (in a compound SELECT,
 * the first branch's): a first branch reads view_column_types (always empty), and the rows come after
 * it, each cast to its kind's storage class so that SQLite 3.44 and later keep the first branch's type.
 * Each of the view's own branches is wrapped apart (a UNION ALL nested in a branch is not flattened:
 * counting a history view took 8 times as long), and no branch has a WHERE of its own, so SQLite counts
 * the view branch by branch without computing its columns.
 */
function typedView(selects: readonly string[], columns: readonly { name: string; kind: ValueKind }[]): string {
  const typed = columns.map((c) => `t.${DECLARED[c.kind][0]} as "${c.name}"`).join(', ');
  const cast = (select: string) => {
    const bare = bareColumns(select);
    return columns.map((c) => (bare.has(c.name) ? `q."${c.name}"` : `cast(q."${c.name}" as ${DECLARED[c.kind][1]})`)).join(', ');
  };
  return [`select ${typed} from view_column_types t`, ...selects.map((s) => `select ${cast(s)} from (\n${s}\n) q`)].join('\nunion all\n');
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
