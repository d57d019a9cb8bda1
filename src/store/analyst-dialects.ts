// The analyst-SQL dialect of each store (analyst-sql.ts), for code that knows the store by its dialect's
// name: the migrations are given the name, and the repeatable objects are made from it.
import type { AnalystSql } from './analyst-sql.js';
import { POSTGRES_ANALYST_SQL } from './postgres/postgres-analyst-sql.js';
import { SQLITE_ANALYST_SQL } from './sqlite/sqlite-analyst-sql.js';
import type { Dialect } from './types.js';

export type { AnalystSql, RowTrigger } from './analyst-sql.js';

const BY_DIALECT: Readonly<Record<Dialect, AnalystSql>> = { sqlite: SQLITE_ANALYST_SQL, postgres: POSTGRES_ANALYST_SQL };

export function analystSql(dialect: Dialect): AnalystSql {
  return BY_DIALECT[dialect];
}
