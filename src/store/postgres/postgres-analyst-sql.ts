// PostgreSQL's analyst-SQL fragments (the contract: analyst-sql.ts). JSON is jsonb read with #> / #>>;
// times are timestamptz and dates date. A cast that would fail on a malformed value (a bad time text)
// is guarded by the text's form, so it reads as null as on SQLite.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../database.js';
import { groupColumns, type AnalystSql } from '../analyst-sql.js';
import { postgresTables } from './postgres-tables.js';

const jsonPath = (path: string) => `'{${path.split('.').join(',')}}'`;

export const POSTGRES_ANALYST_SQL: AnalystSql = {
  jsonType: (doc, path) => `jsonb_typeof(${doc} #> ${jsonPath(path)})`,
  jsonScalar: (doc, path) => `(${doc} #>> ${jsonPath(path)})`,
  jsonValue: (doc, path) => `${doc} #> ${jsonPath(path)}`,
  isJson: { string: `= 'string'`, number: `= 'number'`, boolean: `in ('true', 'false', 'boolean')`, container: `in ('array', 'object')` },
  toDouble: (v) => `${v}::double precision`,
  toInteger: (v) => `round(${v}::numeric)::bigint`,
  toBoolean: (v) => `${v}::boolean`,
  timeFromUnix: (s) => `to_timestamp(${s}::double precision)`,
  timeFromText: (v, isText) => `case when ${v} ~ '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}' and ${isText} then ${v}::timestamptz end`,
  dateFromText: (v, isText) => `case when ${v} ~ '^\\d{4}-\\d{2}-\\d{2}$' and ${isText} then ${v}::date end`,
  time: (e) => e,
  dateColumn: (e) => `cast(${e} as date)`,
  orderedList: (value, from, orderBy) => `(select string_agg(${value}, ',' order by ${orderBy}) ${from})`,
  // PostgreSQL types a view's columns from their expressions, which the lifts already type.
  typedView: (select) => select,
  unionSource: (selects) => selects.join('\nunion all\n'),
  versionValues: 'carried',
  // Concatenating an empty object copies the document (a record's raw is an object; an array would gain
  // an element no lift reads, lifts reading keys).
  jsonOnce: (doc) => `(${doc} || '{}'::jsonb)`,
  now: 'now()',
  secondsBetween: (from, to = 'now()') => `cast(extract(epoch from (${to} - ${from})) as double precision)`,
  dayOf: (e) => `(${e} at time zone 'UTC')::date`,
  weekOf: (e) => `date_trunc('week', ${e} at time zone 'UTC')::date`,
  doubleType: 'double precision',
  integerType: 'bigint',
  // Each column its own field of the record, not a lateral join: PostgreSQL drops an unread column, so a
  // count reads row_history's index alone, where a join populated every version's record to count it
  // (v_developments_history: 953 ms of CPU for 233,000 versions at two months of a year; bench/RESULTS.md).
  typedRow: (table, doc) => ({
    join: '',
    column: (name) => `(jsonb_populate_record(null::${table}, ${doc})).${name}`,
  }),
  jsonObject: (entries) => `jsonb_build_object(${entries.map(([name, e]) => `'${name}', ${e}`).join(', ')})`,
  asText: (e) => `${e}::text`,
  onUnlessOff: (setting) => `coalesce(${setting}, true)`,
  rowTrigger: (t) => [
    `create or replace function ${t.name}() returns trigger language plpgsql as $$
begin
  if ${t.guard} then
    ${t.statement};
  end if;
  return null;
end $$`,
    `create trigger ${t.name} after update on ${t.table} for each row when (${t.when}) execute function ${t.name}()`,
  ],
  dropRowTrigger: (t) => [`drop trigger if exists ${t.name} on ${t.table}`, `drop function if exists ${t.name}()`],
  listTriggers: async (db) =>
    (
      await sql<{ name: string; table: string }>`
        select g.tgname as name, c.relname as "table" from pg_trigger g join pg_class c on c.oid = g.tgrelid
        where c.relnamespace = current_schema()::regnamespace and not g.tgisinternal`.execute(db)
    ).rows,
  async runAll(db, statements) {
    if (statements.length > 0) await sql.raw(statements.join(';\n')).execute(db);
  },
  listTables: (db) => postgresTables(db as Kysely<Database>),
  listColumns: async (db) =>
    groupColumns(
      (
        await sql<{ table: string; column: string; pk: number }>`
          select c.relname as "table", a.attname as "column", coalesce(array_position(k.conkey, a.attnum), 0) as pk
          from pg_class c
            join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
            left join pg_constraint k on k.conrelid = c.oid and k.contype = 'p'
          where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p')
          order by c.relname, a.attnum`.execute(db)
      ).rows,
    ),
  distinctFrom: 'is distinct from',
  async commentable(db) {
    const { rows } = await sql<{ relation: string; column: string }>`
      select c.relname as relation, a.attname as column
      from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where n.nspname = current_schema() and c.relkind in ('r', 'v', 'p')`.execute(db);
    const relations = new Map<string, Set<string>>();
    for (const r of rows) relations.set(r.relation, (relations.get(r.relation) ?? new Set()).add(r.column));
    return relations;
  },
};
