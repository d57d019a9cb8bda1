// Prepares what fresh-schema.ts applies to a new SQLite file: every migration of the folder and the
// repeatable objects replayed, the way any store is migrated, into an in-memory database; then its
// objects (sqlite_schema keeps each one's CREATE statement, as ALTERs left it) and its rows. Run by
// `npm run build` (scripts/prepare-fresh-schema.mjs) on the compiled migrations.
import { writeFile } from 'node:fs/promises';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { migrationsHash } from '../migration-files.js';
import type { Migrations } from '../migrations.js';
import { runMigrations } from '../run-migrations.js';
import { type FreshSchema, freshSchemaFile } from './fresh-schema.js';
import { createSqliteAdapter } from './sqlite-adapter.js';

// Tables first (an index or trigger needs its table), views last (a view may read another view).
const TYPE_ORDER = `case type when 'table' then 0 when 'index' then 1 when 'trigger' then 2 else 3 end`;

export async function captureFreshSchema(migrations: Migrations): Promise<FreshSchema> {
  const adapter = createSqliteAdapter(':memory:');
  try {
    const db = adapter.db as unknown as Kysely<any>;
    const outcome = await runMigrations(db, adapter, migrations);
    if (outcome.error !== undefined) throw outcome.error;
    // sqlite_* objects (sqlite_sequence, automatic indexes) are made by SQLite itself along with their table.
    const { rows: objects } = await sql<{ name: string; type: string; sql: string }>`
      select name, type, sql from sqlite_schema where sql is not null and name not like 'sqlite\\_%' escape '\\'
      order by ${sql.raw(TYPE_ORDER)}, rowid`.execute(db);
    const tables: FreshSchema['tables'] = [];
    for (const { name } of objects.filter((o) => o.type === 'table')) {
      const rows = await db.selectFrom(name).selectAll().execute();
      if (rows.length > 0) tables.push({ table: name, rows });
    }
    const applied = (await db.selectFrom('kysely_migration').select('name').orderBy('name').execute()).map((r) => String(r.name));
    return { migrationsHash: await migrationsHash(migrations.folder), migrations: applied, statements: objects.map((o) => o.sql), tables };
  } finally {
    await adapter.close();
  }
}

/** Writes the prepared schema beside the migrations folder, where readFreshSchema looks for it. */
export async function writeFreshSchema(migrations: Migrations): Promise<string> {
  const file = freshSchemaFile(migrations.folder);
  await writeFile(file, `${JSON.stringify(await captureFreshSchema(migrations))}\n`);
  return file;
}
