// Forward-only migrations: schema/migrations/NNNN-name.ts, each `up(db, t, dialect)` with the adapter's
// column types and dialect (a migration never guesses the dialect from a type name), applied in name
// order by Kysely's Migrator (which locks against concurrent runs).
import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Migrator, sql } from 'kysely';
import type { Kysely, Migration, MigrationProvider } from 'kysely';
import type { StoreAdapter } from './store-adapter.js';
import type { ColumnTypes, Dialect, Store } from './types.js';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../schema/migrations/', import.meta.url));
const MIGRATION_FILE = /^(\d{4}-[a-z0-9-]+)\.(ts|js|mjs)$/;

export type MigrationOutcome = Awaited<ReturnType<Store['migrate']>>;

/** What the migrations are told about the database they run on. */
export type MigrationTarget = Pick<StoreAdapter, 'dialect' | 'columnTypes' | 'schema'>;

// A migration changes the schema it would be typed against: Kysely<any> by design (Kysely's own advice).
type MigrationModule = { up(db: Kysely<any>, t: ColumnTypes, dialect: Dialect): Promise<void> };

/** Imports every migration file of `dir`; the name (without extension) is what gets recorded. */
export class ColumnTypesMigrationProvider implements MigrationProvider {
  constructor(
    private readonly dir: string,
    private readonly target: MigrationTarget,
  ) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const migrations: Record<string, Migration> = {};
    for (const file of (await readdir(this.dir)).sort()) {
      const match = MIGRATION_FILE.exec(file);
      if (!match || file.endsWith('.d.ts')) continue;
      const mod = (await import(pathToFileURL(this.dir + file).href)) as MigrationModule;
      if (typeof mod.up !== 'function') throw new Error(`migration ${file} has no exported up(db, t, dialect)`);
      migrations[match[1]] = { up: (db) => mod.up(db, this.target.columnTypes, this.target.dialect) };
    }
    return migrations;
  }
}

/** Never throws: a failure is in `error` and in the failed migration's status. */
export async function runMigrations(db: Kysely<any>, target: MigrationTarget, dir: string = MIGRATIONS_DIR): Promise<MigrationOutcome> {
  try {
    const migrator = new Migrator({
      db,
      provider: new ColumnTypesMigrationProvider(dir, target),
      // Named always: left unnamed, Kysely looks for its tables in every schema, and finding another
      // schema's (a shared database) it would never create the mirror's own.
      migrationTableSchema: target.schema ?? (await currentSchema(db, target.dialect)),
    });
    const { results = [], error } = await migrator.migrateToLatest();
    return {
      results: results.map((r) => ({ name: r.migrationName, status: r.status })),
      ...(error === undefined ? {} : { error }),
    };
  } catch (error) {
    return { results: [], error };
  }
}

/** The schema unqualified names land in (PostgreSQL's search_path), or undefined on SQLite. */
async function currentSchema(db: Kysely<any>, dialect: Dialect): Promise<string | undefined> {
  if (dialect !== 'postgres') return undefined;
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema;
}
