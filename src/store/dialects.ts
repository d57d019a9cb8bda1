// The dialects the store knows, each one folder (src/store/<dialect>/) with one object of StoreDialect's
// shape: the one list a new dialect is added to.
import { POSTGRES } from './postgres/postgres-dialect.js';
import { SQLITE } from './sqlite/sqlite-dialect.js';
import type { AnalystSql } from './analyst-sql.js';
import type { StoreDialect, StoreLocation } from './store-dialect.js';
import type { Dialect } from './types.js';

/** In the order they are asked to claim a `--db` (the last takes a plain path). */
export const DIALECTS: readonly StoreDialect<any>[] = [POSTGRES, SQLITE];

export function dialectNamed(name: Dialect): StoreDialect {
  const found = DIALECTS.find((d) => d.name === name);
  if (!found) throw new Error(`no store dialect ${name}`);
  return found;
}

export function dialectOf(location: StoreLocation): StoreDialect {
  return dialectNamed(location.dialect);
}

/** The analyst-SQL fragments (analyst-sql.ts) of the store named `name`: what schema/'s views and triggers are made of. */
export function analystSql(name: Dialect): AnalystSql {
  return dialectNamed(name).analystSql;
}
