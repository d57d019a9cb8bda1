// One time form in every base table and its kept history: `/v1`'s Unix-second times (updated_at, ath_date,
// ...) were kept as numbers and token-unlock dates as the service wrote them (`2022-02-25T00:00:00Z`, which
// sorts wrongly against the mirror's `.000Z` on SQLite). They become the store's form: timestamptz on
// PostgreSQL; on SQLite ISO 8601 UTC text with milliseconds, the table made again so that its declared
// type says text (SQLite cannot change a column's type in place). The versions kept in row_history are
// converted too. Views and triggers are dropped before migrations run, so nothing reads these tables now.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes, Dialect } from '../../src/store/types.js';

const UNIX_TIMES: Readonly<Record<string, readonly string[]>> = {
  assets: ['updated_at', 'market_cap_updated_at', 'price_updated_at', 'equity_updated_at'],
  transparency_ratings: ['created_at', 'updated_at'],
  projects: ['updated_at'],
  chains: ['updated_at'],
  sectors: ['updated_at'],
  groups: ['updated_at'],
  industries: ['updated_at'],
  glossary: ['updated_at'],
  asset_markets: ['ath_date', 'updated_at'],
  asset_ohlcv: ['updated_at'],
};
const ISO = `'%Y-%m-%dT%H:%M:%fZ'`;

export async function up(db: Kysely<any>, _t: ColumnTypes, dialect: Dialect): Promise<void> {
  for (const [table, columns] of Object.entries(UNIX_TIMES)) {
    if (dialect === 'postgres') await postgresTable(db, table, columns);
    else await sqliteTable(db, table, columns);
  }
  if (dialect === 'sqlite')
    for (const column of ['genesis_date', 'projected_end_date'])
      await sql
        .raw(
          `update token_unlock_assets set ${column} = coalesce(strftime(${ISO}, ${column}), ${column}) where ${column} not like '____-__-__T__:__:__.___Z'`,
        )
        .execute(db);
}

async function postgresTable(db: Kysely<any>, table: string, columns: readonly string[]): Promise<void> {
  const alter = columns.map((c) => `alter column ${c} type timestamptz using to_timestamp(${c})`).join(', ');
  await sql.raw(`alter table ${table} ${alter}`).execute(db);
  for (const c of columns)
    await sql
      .raw(
        `update row_history set typed_row = jsonb_set(typed_row, '{${c}}', to_jsonb(to_timestamp((typed_row ->> '${c}')::double precision))) ` +
          `where table_name = '${table}' and jsonb_typeof(typed_row -> '${c}') = 'number'`,
      )
      .execute(db);
}

/** A number is Unix seconds; a text (a record that gave `updatedAt`) is put in the one form if it is a time. */
const sqliteTime = (value: string) =>
  `case when typeof(${value}) in ('integer', 'real') then strftime(${ISO}, ${value}, 'unixepoch') else coalesce(strftime(${ISO}, ${value}), ${value}) end`;

async function sqliteTable(db: Kysely<any>, table: string, columns: readonly string[]): Promise<void> {
  const objects = await sql<{ type: string; sql: string }>`
    select type, sql from sqlite_master where tbl_name = ${table} and type in ('table', 'index') and sql is not null order by type = 'table' desc`.execute(
    db,
  );
  const [create, ...indexes] = objects.rows;
  let rebuilt = create!.sql.replace(`CREATE TABLE "${table}"`, `CREATE TABLE "${table}__rebuilt"`);
  for (const c of columns) rebuilt = rebuilt.replace(`"${c}" integer`, `"${c}" text`);
  const names = (await sql<{ name: string }>`select name from pragma_table_info(${table}) order by cid`.execute(db)).rows.map(
    (r) => r.name,
  );
  const values = names.map((n) => (columns.includes(n) ? sqliteTime(`"${n}"`) : `"${n}"`));
  await sql.raw(rebuilt).execute(db);
  await sql.raw(`insert into "${table}__rebuilt" select ${values.join(', ')} from "${table}"`).execute(db);
  await sql.raw(`drop table "${table}"`).execute(db);
  await sql.raw(`alter table "${table}__rebuilt" rename to "${table}"`).execute(db);
  for (const index of indexes) await sql.raw(index.sql).execute(db);
  for (const c of columns)
    await sql
      .raw(
        `update row_history set typed_row = json_set(typed_row, '$.${c}', strftime(${ISO}, json_extract(typed_row, '$.${c}'), 'unixepoch')) ` +
          `where table_name = '${table}' and json_type(typed_row, '$.${c}') in ('integer', 'real')`,
      )
      .execute(db);
}
