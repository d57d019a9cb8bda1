// PostgreSQL only: JSON and text columns compressed with lz4 instead of the server's default (pglz).
// A first sync spent about a sixth of PostgreSQL's CPU in pglz_compress (perf, scale 10): raw records
// of 1-2 KB push most rows past the 2 KB TOAST threshold. lz4 compresses and decompresses several
// times faster at a similar ratio. It needs PostgreSQL 14+ built with lz4 (Debian, Ubuntu, the
// Docker images and the managed services are); on other servers this changes nothing. Values already
// stored keep their compression; only new values are written with lz4.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { ColumnTypes, Dialect } from '../../src/store/types.js';

export async function up(db: Kysely<any>, _t: ColumnTypes, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return; // SQLite: no TOAST
  const { rows: lz4 } = await sql<{ ok: boolean }>`
    select 'lz4' = any(enumvals) as ok from pg_settings where name = 'default_toast_compression'`.execute(db);
  if (!lz4[0]?.ok) return;
  const { rows } = await sql<{ table: string; column: string }>`
    select c.relname as table, a.attname as column
    from pg_attribute a
      join pg_class c on c.oid = a.attrelid
      join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped
      and a.atttypid in ('jsonb'::regtype, 'text'::regtype) and c.relname not like 'kysely_migration%'
    order by c.relname, a.attnum`.execute(db);
  const byTable = new Map<string, string[]>();
  for (const { table, column } of rows) byTable.set(table, [...(byTable.get(table) ?? []), column]);
  for (const [table, columns] of byTable) {
    const alters = columns.map((column) => sql`alter column ${sql.ref(column)} set compression lz4`);
    await sql`alter table ${sql.table(table)} ${sql.join(alters)}`.execute(db);
  }
}
