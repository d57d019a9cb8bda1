// Forward-only migrations: the handed folder's NNNN-name.ts, each `up(db, t, dialect)` with the adapter's
// column types and dialect (a migration never guesses the dialect from a type name), applied in name
// order by Kysely's Migrator (which locks against concurrent runs); then the handed repeatable objects.
import { pathToFileURL } from 'node:url';
import { Migrator, sql } from 'kysely';
import type { Kysely, Migration, MigrationProvider } from 'kysely';
import { migrationFiles } from './migration-files.js';
import { definitionHash, type Migrations, type Repeatable } from './migrations.js';
import { withSchemaIntrospection } from './postgres/schema-introspector.js';
import { applyFreshSchema, type FreshSchema, isEmptySqlite, readFreshSchema } from './sqlite/fresh-schema.js';
import type { StoreAdapter } from './store-adapter.js';
import type { ColumnTypes, Dialect, Store } from './types.js';

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
    for (const [name, file] of await migrationFiles(this.dir)) {
      const mod = (await import(pathToFileURL(this.dir + file).href)) as MigrationModule;
      if (typeof mod.up !== 'function') throw new Error(`migration ${file} has no exported up(db, t, dialect)`);
      migrations[name] = { up: (db) => mod.up(db, this.target.columnTypes, this.target.dialect) };
    }
    return migrations;
  }
}

/**
 * Whether the database recorded exactly the migrations of `dir`: then the Migrator (which imports every
 * migration and introspects every table, about 50-100 ms of each command's start) has nothing to do.
 * Anything else (pending, unknown or no ledger yet) goes through the Migrator and its checks.
 */
async function recordedExactly(db: Kysely<any>, schema: string | undefined, dir: string): Promise<boolean> {
  const names = (await migrationFiles(dir)).map(([name]) => name);
  let recorded: string[];
  try {
    const rows = await (schema ? db.withSchema(schema) : db).selectFrom('kysely_migration').select('name').execute();
    recorded = rows.map((r) => String(r.name)).sort();
  } catch {
    return false; // no ledger yet: a new database
  }
  return recorded.length === names.length && recorded.every((name, i) => name === names[i]);
}

/** The migrations of `dir` the database has not recorded, or null when it has no ledger (not a mirror); writes nothing. */
export async function pendingMigrations(db: Kysely<any>, target: MigrationTarget, dir: string): Promise<string[] | null> {
  const schema = target.schema ?? (await currentSchema(db, target.dialect));
  let recorded: Set<string>;
  try {
    const rows = await (schema ? db.withSchema(schema) : db).selectFrom('kysely_migration').select('name').execute();
    recorded = new Set(rows.map((r) => String(r.name)));
  } catch {
    return null;
  }
  return (await migrationFiles(dir)).map(([name]) => name).filter((name) => !recorded.has(name));
}

/**
 * Never throws: a failure is in `error` and in the failed migration's status. `prepared` is the schema a
 * new SQLite file gets in one go (default: the one built beside the folder, if built from the same files).
 */
export async function runMigrations(
  db: Kysely<any>,
  target: MigrationTarget,
  migrations: Migrations,
  prepared: () => Promise<FreshSchema | undefined> = () => readFreshSchema(migrations.folder),
): Promise<MigrationOutcome> {
  const { folder: dir, repeatables } = migrations;
  try {
    // Named always: left unnamed, Kysely looks for its tables in every schema, and finding another
    // schema's (a shared database) it would never create the mirror's own.
    const migrationTableSchema = target.schema ?? (await currentSchema(db, target.dialect));
    if (await recordedExactly(db, migrationTableSchema, dir)) {
      await applyRepeatables(db, target.dialect, repeatables);
      return { results: [] };
    }
    const fresh = target.dialect === 'sqlite' && (await isEmptySqlite(db)) ? await prepared() : undefined;
    if (fresh && (await applyFreshSchema(db, fresh))) {
      await applyRepeatables(db, target.dialect, repeatables); // made again only if the views changed since the build
      return { results: fresh.migrations.map((name) => ({ name, status: 'Success' as const })) };
    }
    const migrator = schemaMigrator(db, new ColumnTypesMigrationProvider(dir, target), migrationTableSchema);
    // A migration may change a table the views or triggers read: they are dropped first and made again after.
    const pending = (await migrator.getMigrations()).some((m) => m.executedAt === undefined);
    if (pending) await dropRepeatables(db, target.dialect, repeatables);
    const { results = [], error } = await migrator.migrateToLatest();
    if (error === undefined) await applyRepeatables(db, target.dialect, repeatables);
    return {
      results: results.map((r) => ({ name: r.migrationName, status: r.status })),
      ...(error === undefined ? {} : { error }),
    };
  } catch (error) {
    return { results: [], error };
  }
}

/**
 * Kysely's Migrator kept to the mirror's own schema: on PostgreSQL it introspects that schema alone, so
 * another schema migrating in the same database at that moment cannot fail it (schema-introspector.ts).
 */
export function schemaMigrator(db: Kysely<any>, provider: MigrationProvider, migrationTableSchema: string | undefined): Migrator {
  const migratorDb = migrationTableSchema === undefined ? db : withSchemaIntrospection(db, migrationTableSchema);
  return new Migrator({ db: migratorDb, provider, migrationTableSchema });
}

/** The schema unqualified names land in (PostgreSQL's search_path), or undefined on SQLite. */
async function currentSchema(db: Kysely<any>, dialect: Dialect): Promise<string | undefined> {
  if (dialect !== 'postgres') return undefined;
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema;
}

/** Drops the repeatable objects and forgets their hashes (a database without the ledger yet has none to forget). */
async function dropRepeatables(db: Kysely<any>, dialect: Dialect, repeatables: readonly Repeatable[]): Promise<void> {
  await exclusively(db, dialect, async (trx) => {
    for (const r of repeatables) await r.drop(trx, dialect);
    if (await hasLedger(trx, dialect)) await trx.deleteFrom('schema_objects').execute();
  });
}

/** Makes each repeatable object whose definition changed since it was last made (or never was), or that went missing. */
async function applyRepeatables(db: Kysely<any>, dialect: Dialect, repeatables: readonly Repeatable[]): Promise<void> {
  if (!(await hasLedger(db, dialect))) return; // migrations of another folder (a test's older release)
  for (const r of repeatables) {
    const hash = await definitionHash(r, db, dialect);
    const stored = await db.selectFrom('schema_objects').select('definition_hash').where('name', '=', r.name).executeTakeFirst();
    if (stored?.definition_hash === hash && !(await r.missing?.(db, dialect))) continue;
    await exclusively(db, dialect, async (trx) => {
      await r.apply(trx, dialect);
      const row = { definition_hash: hash, applied_at: new Date().toISOString() };
      await trx
        .insertInto('schema_objects')
        .values({ name: r.name, ...row })
        .onConflict((oc) => oc.column('name').doUpdateSet(row))
        .execute();
    });
  }
}

/** One transaction that two processes opening the store at once never run together. */
async function exclusively(db: Kysely<any>, dialect: Dialect, fn: (trx: Kysely<any>) => Promise<void>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('ds-mirror repeatable objects'))`.execute(trx);
    await fn(trx);
  });
}

/** Whether the current schema holds the ledger yet (not before migration 0030 ran). */
async function hasLedger(db: Kysely<any>, dialect: Dialect): Promise<boolean> {
  const found =
    dialect === 'postgres'
      ? await sql<{ t: string | null }>`select to_regclass('schema_objects')::text as t`.execute(db)
      : await sql<{ t: string | null }>`select name as t from sqlite_master where type = 'table' and name = 'schema_objects'`.execute(db);
  return found.rows[0]?.t != null;
}
