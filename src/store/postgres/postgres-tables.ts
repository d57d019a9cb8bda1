// PostgreSQL's tables as the store describes them (store-tables.ts): columns with their real types,
// serial sequences, primary and foreign keys, and whether each key sorts as bytes (its collation).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../database.js';
import type { ColumnKind, TableInfo } from '../types.js';

const PG_KINDS: Record<string, ColumnKind> = {
  boolean: 'boolean',
  jsonb: 'json',
  json: 'json',
  'timestamp with time zone': 'timestamp',
  bigint: 'integer',
  integer: 'integer',
  smallint: 'integer',
  'double precision': 'double',
  real: 'double',
  text: 'text',
};

export async function postgresTables(conn: Kysely<Database>): Promise<TableInfo[]> {
  const columns = await sql<{ table: string; column: string; type: string; sequence: string | null; collation: string | null }>`
    select c.relname as table, a.attname as column, format_type(a.atttypid, a.atttypmod) as type,
      pg_get_serial_sequence(quote_ident(n.nspname) || '.' || quote_ident(c.relname), a.attname) as sequence,
      co.collname as collation
    from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      left join pg_collation co on co.oid = a.attcollation
    where n.nspname = current_schema() and c.relkind in ('r', 'p')
    order by c.relname, a.attnum`.execute(conn);
  const keys = await sql<{ table: string; column: string }>`
    select c.relname as table, a.attname as column
    from pg_constraint k
      join pg_class c on c.oid = k.conrelid
      join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attnum = any(k.conkey)
    where k.contype = 'p' and n.nspname = current_schema()
    order by c.relname, array_position(k.conkey, a.attnum)`.execute(conn);
  const parents = await sql<{ table: string; parent: string }>`
    select c.relname as table, p.relname as parent
    from pg_constraint k
      join pg_class c on c.oid = k.conrelid
      join pg_class p on p.oid = k.confrelid
      join pg_namespace n on n.oid = c.relnamespace
    where k.contype = 'f' and n.nspname = current_schema()`.execute(conn);

  // The database default: its lc_collate, or an ICU locale (PostgreSQL 15+; read via jsonb so older servers answer too).
  const [db] = (
    await sql<{ provider: string | null; collate: string }>`
      select to_jsonb(d) ->> 'datlocprovider' as provider, datcollate as collate
      from pg_database d where datname = current_database()`.execute(conn)
  ).rows;
  const defaultIsBytes = db?.provider !== 'i' && (db?.collate === 'C' || db?.collate === 'POSIX');
  const byName = new Map<string, TableInfo>();
  const byteOrdered = new Set<string>();
  for (const c of columns.rows) {
    const table = byName.get(c.table) ?? { name: c.table, columns: [], key: [], keyByteOrdered: true, parents: [] };
    table.columns.push({ name: c.column, kind: PG_KINDS[c.type] ?? 'other', sequence: c.sequence });
    byName.set(c.table, table);
    const bytes = c.collation === null || c.collation === 'C' || c.collation === 'POSIX' || (c.collation === 'default' && defaultIsBytes);
    if (bytes) byteOrdered.add(`${c.table}.${c.column}`);
  }
  for (const k of keys.rows) {
    const table = byName.get(k.table);
    table?.key.push(k.column);
    if (table && !byteOrdered.has(`${k.table}.${k.column}`)) table.keyByteOrdered = false;
  }
  for (const p of parents.rows) if (p.parent !== p.table) byName.get(p.table)?.parents.push(p.parent);
  return [...byName.values()];
}
