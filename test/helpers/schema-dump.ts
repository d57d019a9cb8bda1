// The schema of a mirror as text, to compare two databases (or one against a saved fixture): every
// table, column, constraint, index, trigger, function, view and comment, in a fixed order, without the
// migrator's own tables or the PostgreSQL schema's name (each test store has its own).
import { sql } from 'kysely';
import type { Store } from '../../src/store/index.js';

const MIGRATOR_TABLES = /^kysely_migration/;

export async function schemaDump(store: Store): Promise<string> {
  return store.dialect === 'sqlite' ? sqliteDump(store) : postgresDump(store);
}

async function sqliteDump(store: Store): Promise<string> {
  const { rows } = await sql<{ type: string; name: string; sql: string | null }>`
    select type, name, sql from sqlite_master order by type, name`.execute(store.db);
  return rows
    .filter((r) => !MIGRATOR_TABLES.test(r.name) && !r.name.startsWith('sqlite_autoindex_kysely'))
    .map((r) => `${r.type} ${r.name}\n${r.sql ?? ''}`)
    .join('\n\n');
}

async function postgresDump(store: Store): Promise<string> {
  const lines = async (query: ReturnType<typeof sql<{ line: string }>>) => (await query.execute(store.db)).rows.map((r) => r.line);
  const sections = [
    await lines(sql<{ line: string }>`
      select c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || case when a.attnotnull then ' not null' else '' end
        || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '') || coalesce(' -- ' || col_description(c.oid, a.attnum), '') as line
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
        join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
        left join pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
      where n.nspname = current_schema() and c.relkind in ('r', 'v') order by 1`),
    await lines(sql<{ line: string }>`
      select c.relname || ' ' || c.relkind::text || coalesce(' -- ' || obj_description(c.oid, 'pg_class'), '')
        || coalesce(' ' || array_to_string(c.reloptions, ','), '') as line
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'v', 'S') order by 1`),
    await lines(sql<{ line: string }>`
      select conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) as line
      from pg_constraint where connamespace = current_schema()::regnamespace order by 1`),
    await lines(sql<{ line: string }>`select indexdef as line from pg_indexes where schemaname = current_schema() order by 1`),
    await lines(sql<{ line: string }>`
      select pg_get_triggerdef(t.oid) as line from pg_trigger t join pg_class c on c.oid = t.tgrelid
      where c.relnamespace = current_schema()::regnamespace and not t.tgisinternal order by 1`),
    await lines(sql<{ line: string }>`
      select proname || ': ' || prosrc as line from pg_proc where pronamespace = current_schema()::regnamespace order by 1`),
    await lines(sql<{ line: string }>`
      select c.relname || ': ' || pg_get_viewdef(c.oid) as line from pg_class c
      where c.relnamespace = current_schema()::regnamespace and c.relkind = 'v' order by 1`),
  ];
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(store.db);
  const schema = rows[0]!.schema;
  return sections
    .map((section) => section.filter((line) => !MIGRATOR_TABLES.test(line)).join('\n'))
    .join('\n\n')
    .replaceAll(`${schema}.`, '<schema>.');
}
