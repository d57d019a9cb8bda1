// What Kysely's Migrator asks of a PostgreSQL database (does the schema exist, which tables does it hold),
// answered for the mirror's schema alone. Kysely's own introspector lists every schema's tables with their
// columns, and another schema changing at that moment (another mirror migrating in the same database) fails
// it with 'column "..." of relation "..." does not exist': a fresh mirror then refuses to open.
import { sql, type DatabaseIntrospector, type Kysely, type TableMetadata } from 'kysely';

export function schemaIntrospector(db: Kysely<any>, schema: string): DatabaseIntrospector {
  const getTables = async (): Promise<TableMetadata[]> => {
    const { rows } = await sql<{ name: string; type: string }>`
      select table_name as name, table_type as type from information_schema.tables where table_schema = ${schema}`.execute(db);
    return rows.map((r) => ({ name: r.name, schema, isView: r.type === 'VIEW', columns: [] }));
  };
  return {
    getSchemas: async () =>
      (await sql<{ name: string }>`select nspname as name from pg_namespace where nspname = ${schema}`.execute(db)).rows,
    getTables,
    getMetadata: async () => ({ tables: await getTables() }),
  };
}

/** The database as the Migrator sees it: the same connection, with the schema's own introspection. */
export function withSchemaIntrospection(db: Kysely<any>, schema: string): Kysely<any> {
  const introspection = schemaIntrospector(db, schema);
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'introspection') return introspection;
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
