// What the migrator asks of PostgreSQL: the search_path's schema, Kysely's Migrator kept to the mirror's
// schema (schema-introspector.ts), an advisory lock around the repeatable objects, and to_regclass.
import { sql, type Kysely } from 'kysely';
import type { MigratorSupport } from '../store-dialect.js';
import { withSchemaIntrospection } from './schema-introspector.js';

export const POSTGRES_MIGRATOR: MigratorSupport = {
  async currentSchema(db: Kysely<any>) {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    return rows[0]?.schema;
  },
  withinSchema: withSchemaIntrospection,
  async lockRepeatables(trx: Kysely<any>) {
    await sql`select pg_advisory_xact_lock(hashtext('ds-mirror repeatable objects'))`.execute(trx);
  },
  async hasTable(db: Kysely<any>, table: string) {
    const { rows } = await sql<{ t: string | null }>`select to_regclass(${table})::text as t`.execute(db);
    return rows[0]?.t != null;
  },
};
