// Dates typed as dates on PostgreSQL: market_stats.date, sec_filings.filing_date and the usage tables' day
// were text there (YYYY-MM-DD), so date arithmetic and BI tools' date filters needed a cast. SQLite keeps
// its one text form. A value already held that does not start with a date becomes null (its record's raw
// keeps it); the analyst views are dropped before pending migrations run, so no view holds the columns.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes, Dialect } from '../../src/store/types.js';

const DATE_COLUMNS: readonly (readonly [table: string, column: string])[] = [
  ['market_stats', 'date'],
  ['sec_filings', 'filing_date'],
  ['usage_ledger', 'day'],
  ['usage_quotas', 'day'],
];

export async function up(db: Kysely<any>, _t: ColumnTypes, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  for (const [table, name] of DATE_COLUMNS) {
    const column = `"${name}"`; // "date" is a type name too
    await sql
      .raw(
        `alter table ${table} alter column ${column} type date using ` +
          `(case when ${column} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}' then substr(${column}, 1, 10)::date end)`,
      )
      .execute(db);
  }
}
