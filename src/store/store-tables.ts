// What tables a store holds, read from the database itself (not from the migrations), so `copy`
// moves every table a migration creates, including ones added after it was written.
import { sql } from 'kysely';
import type { Store } from './types.js';

/** How a value is stored; SQLite cannot tell a boolean from an integer, nor JSON or a time from text. */
export type ColumnKind = 'boolean' | 'json' | 'timestamp' | 'integer' | 'double' | 'text' | 'other';

export interface ColumnInfo {
  name: string;
  kind: ColumnKind;
  /** PostgreSQL only: the sequence behind a serial column, to move past copied ids. */
  sequence: string | null;
}

export interface TableInfo {
  name: string;
  columns: ColumnInfo[];
  /** Primary key columns in key order; empty when the table has none. */
  key: string[];
  /** The key's native (index) order is byte order: text keys under C/POSIX collation, or no text key. */
  keyByteOrdered: boolean;
  /** Tables this one references (copied before it, emptied after it). */
  parents: string[];
}

/** Bookkeeping that belongs to one database, not to the mirror: migration records and live leases. */
function isMirrorTable(name: string): boolean {
  return !name.startsWith('kysely_migration') && name !== 'leases' && !name.startsWith('sqlite_');
}

export async function listTables(store: Store): Promise<TableInfo[]> {
  const tables = store.dialect === 'postgres' ? await postgresTables(store) : await sqliteTables(store);
  return tables.filter((t) => isMirrorTable(t.name)).sort((a, b) => (a.name < b.name ? -1 : 1));
}

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

async function postgresTables(store: Store): Promise<TableInfo[]> {
  const columns = await sql<{ table: string; column: string; type: string; sequence: string | null; collation: string | null }>`
    select c.relname as table, a.attname as column, format_type(a.atttypid, a.atttypmod) as type,
      pg_get_serial_sequence(quote_ident(n.nspname) || '.' || quote_ident(c.relname), a.attname) as sequence,
      co.collname as collation
    from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      left join pg_collation co on co.oid = a.attcollation
    where n.nspname = current_schema() and c.relkind in ('r', 'p')
    order by c.relname, a.attnum`.execute(store.db);
  const keys = await sql<{ table: string; column: string }>`
    select c.relname as table, a.attname as column
    from pg_constraint k
      join pg_class c on c.oid = k.conrelid
      join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attnum = any(k.conkey)
    where k.contype = 'p' and n.nspname = current_schema()
    order by c.relname, array_position(k.conkey, a.attnum)`.execute(store.db);
  const parents = await sql<{ table: string; parent: string }>`
    select c.relname as table, p.relname as parent
    from pg_constraint k
      join pg_class c on c.oid = k.conrelid
      join pg_class p on p.oid = k.confrelid
      join pg_namespace n on n.oid = c.relnamespace
    where k.contype = 'f' and n.nspname = current_schema()`.execute(store.db);

  // The database default: its lc_collate, or an ICU locale (PostgreSQL 15+; read via jsonb so older servers answer too).
  const [db] = (
    await sql<{ provider: string | null; collate: string }>`
      select to_jsonb(d) ->> 'datlocprovider' as provider, datcollate as collate
      from pg_database d where datname = current_database()`.execute(store.db)
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

async function sqliteTables(store: Store): Promise<TableInfo[]> {
  const names = await sql<{ name: string }>`
    select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(store.db);
  const tables: TableInfo[] = [];
  for (const { name } of names.rows) {
    const info = await sql<{ name: string; type: string; pk: number }>`
      select name, type, pk from pragma_table_info(${name})`.execute(store.db);
    const fks = await sql<{ table: string }>`select "table" from pragma_foreign_key_list(${name})`.execute(store.db);
    tables.push({
      name,
      columns: info.rows.map((c) => ({ name: c.name, kind: sqliteKind(c.type), sequence: null })),
      key: info.rows.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name),
      keyByteOrdered: true, // SQLite's default BINARY collation
      parents: [...new Set(fks.rows.map((f) => f.table))].filter((p) => p !== name),
    });
  }
  return tables;
}

function sqliteKind(declared: string): ColumnKind {
  const type = declared.toLowerCase();
  if (type.includes('int')) return 'integer';
  if (type.includes('real') || type.includes('double') || type.includes('float')) return 'double';
  if (type.includes('text') || type.includes('char') || type === '') return 'text';
  return 'other';
}

/** Parents before children; a cycle (none today) keeps the remaining tables in name order. */
export function parentsFirst(tables: readonly TableInfo[]): TableInfo[] {
  const names = new Set(tables.map((t) => t.name));
  const done = new Set<string>();
  const ordered: TableInfo[] = [];
  let left = [...tables];
  while (left.length > 0) {
    const ready = left.filter((t) => t.parents.every((p) => done.has(p) || !names.has(p)));
    const next = ready.length > 0 ? ready : left;
    for (const t of next) {
      ordered.push(t);
      done.add(t.name);
    }
    left = left.filter((t) => !done.has(t.name));
  }
  return ordered;
}
