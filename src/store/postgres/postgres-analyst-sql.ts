// PostgreSQL's analyst-SQL fragments (the contract: analyst-sql.ts). JSON is jsonb read with #> / #>>;
// times are timestamptz and dates date. A cast that would fail on a malformed value (a bad time text)
// is guarded by the text's form, so it reads as null as on SQLite.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../database.js';
import type { AnalystSql } from '../analyst-sql.js';
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
  dayOf: (e) => `(${e} at time zone 'UTC')::date`,
  weekOf: (e) => `date_trunc('week', ${e} at time zone 'UTC')::date`,
  doubleType: 'double precision',
  integerType: 'bigint',
  typedRow: (table, doc, alias) => ({
    join: `cross join lateral jsonb_populate_record(null::${table}, ${doc}) ${alias}`,
    column: (name) => `${alias}.${name}`,
  }),
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
  runAll: async (db, statements) => void (await sql.raw(statements.join(';\n')).execute(db)),
  listTables: (db) => postgresTables(db as Kysely<Database>),
  keepsComments: true,
};
