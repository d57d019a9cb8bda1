// Forward-only migrations: the handed folder's NNNN-name.ts, each `up(db, t, dialect)` with the adapter's
// column types and dialect (a migration never guesses the dialect from a type name), applied in name
// order by Kysely's Migrator (which locks against concurrent runs); then the handed repeatable objects.
import { pathToFileURL } from 'node:url';
import { Migrator } from 'kysely';
import type { Kysely, Migration, MigrationProvider } from 'kysely';
import { migrationFiles } from './migration-files.js';
import { readBuiltHashes, type BuiltHashes } from './built-hashes.js';
import { definitionHash, type Migrations, type Repeatable } from './migrations.js';
import { dialectNamed } from './dialects.js';
import type { FreshSchema, MigratorSupport } from './store-dialect.js';
import type { StoreAdapter } from './store-adapter.js';
import type { ColumnTypes, Dialect, Store } from './types.js';

export type MigrationOutcome = Awaited<ReturnType<Store['migrate']>>;

/** What the migrations are told about the database they run on. */
export type MigrationTarget = Pick<StoreAdapter, 'dialect' | 'columnTypes' | 'schema' | 'script'>;

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
  const schema = target.schema ?? (await dialectNamed(target.dialect).migrator.currentSchema(db));
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
 * new database gets in one go where its dialect keeps one (default: the one built beside the folder, if
 * built from the same files).
 */
export async function runMigrations(
  db: Kysely<any>,
  target: MigrationTarget,
  migrations: Migrations,
  prepared?: () => Promise<FreshSchema | undefined>,
): Promise<MigrationOutcome> {
  const { folder: dir } = migrations;
  const support = dialectNamed(target.dialect).migrator;
  const repeatables = new RepeatableObjects(db, target.dialect, support, migrations.repeatables, await readBuiltHashes(dir));
  try {
    // Named always: left unnamed, Kysely looks for its tables in every schema, and finding another
    // schema's (a shared database) it would never create the mirror's own.
    const migrationTableSchema = target.schema ?? (await support.currentSchema(db));
    if (await recordedExactly(db, migrationTableSchema, dir)) {
      await repeatables.apply();
      return { results: [] };
    }
    const freshSchema = support.freshSchema;
    const fresh = freshSchema && (await freshSchema.isEmpty(db)) ? await (prepared ?? (() => freshSchema.read(dir)))() : undefined;
    if (fresh && (await freshSchema!.apply(db, fresh, target.script))) {
      await repeatables.apply(); // made again only if the views changed since the build
      return { results: fresh.migrations.map((name) => ({ name, status: 'Success' as const })) };
    }
    const migrator = schemaMigrator(db, new ColumnTypesMigrationProvider(dir, target), { ...target, schema: migrationTableSchema });
    // A migration may change a table the views or triggers read: they are dropped first and made again after.
    const pending = (await migrator.getMigrations()).some((m) => m.executedAt === undefined);
    if (pending) await repeatables.drop();
    const { results = [], error } = await migrator.migrateToLatest();
    if (error === undefined) await repeatables.apply();
    return {
      results: results.map((r) => ({ name: r.migrationName, status: r.status })),
      ...(error === undefined ? {} : { error }),
    };
  } catch (error) {
    return { results: [], error };
  }
}

/**
 * Kysely's Migrator kept to the mirror's own schema: where a database has several (PostgreSQL) it
 * introspects that schema alone, so another schema migrating in the same database at that moment cannot fail it.
 */
export function schemaMigrator(
  db: Kysely<any>,
  provider: MigrationProvider,
  target: Pick<MigrationTarget, 'dialect' | 'schema'>,
): Migrator {
  const { schema } = target;
  const migratorDb = schema === undefined ? db : dialectNamed(target.dialect).migrator.withinSchema(db, schema);
  return new Migrator({ db: migratorDb, provider, migrationTableSchema: schema });
}

/** The handed repeatable objects, made and dropped on one database. */
class RepeatableObjects {
  constructor(
    private readonly db: Kysely<any>,
    private readonly dialect: Dialect,
    private readonly support: MigratorSupport,
    private readonly objects: readonly Repeatable[],
    private readonly built: BuiltHashes,
  ) {}

  /** Drops the objects and forgets their hashes (a database without the ledger yet has none to forget). */
  async drop(): Promise<void> {
    await this.exclusively(async (trx) => {
      for (const r of this.objects) await r.drop(trx, this.dialect);
      if (await this.support.hasTable(trx, 'schema_objects')) await trx.deleteFrom('schema_objects').execute();
    });
  }

  /** Makes each object whose definition changed since it was last made (or never was), or that went missing. */
  async apply(): Promise<void> {
    // Not before migration 0030 made the ledger (migrations of another folder: a test's older release).
    if (!(await this.support.hasTable(this.db, 'schema_objects'))) return;
    for (const r of this.objects) {
      const hash = ('codeDefinition' in r && this.built[r.name]?.[this.dialect]) || (await definitionHash(r, this.db, this.dialect));
      const stored = await this.db.selectFrom('schema_objects').select('definition_hash').where('name', '=', r.name).executeTakeFirst();
      if (stored?.definition_hash === hash && !(await r.missing?.(this.db, this.dialect))) continue;
      await this.exclusively(async (trx) => {
        await r.apply(trx, this.dialect);
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
  private async exclusively(fn: (trx: Kysely<any>) => Promise<void>): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await this.support.lockRepeatables(trx);
      await fn(trx);
    });
  }
}
