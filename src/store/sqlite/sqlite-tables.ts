// SQLite's tables as the store describes them (store-tables.ts): sqlite_master and the table pragmas.
// Declared types are all SQLite knows: booleans read as integers, JSON and times as text.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../database.js';
import type { ColumnKind, TableInfo } from '../types.js';

export async function sqliteTables(db: Kysely<Database>): Promise<TableInfo[]> {
  const names = await sql<{ name: string }>`
    select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db);
  const tables: TableInfo[] = [];
  for (const { name } of names.rows) {
    const info = await sql<{ name: string; type: string; pk: number }>`
      select name, type, pk from pragma_table_info(${name})`.execute(db);
    const fks = await sql<{ table: string }>`select "table" from pragma_foreign_key_list(${name})`.execute(db);
    tables.push({
      name,
      columns: info.rows.map((c) => ({ name: c.name, kind: sqliteKind(c.type), sequence: null })),
      key: info.rows
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name),
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
