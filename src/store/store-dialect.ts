// What a dialect folder provides (src/store/<dialect>/), as Kysely's Dialect gives its driver, adapter and
// introspector: one object of this shape, `<dialect>-dialect.ts`. The store's root asks it and never names
// a dialect; dialects.ts lists them. docs/development.md lists the files a new dialect brings.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { AnalystSql } from './analyst-sql.js';
import type { StoreBounds } from './store-bounds.js';
import type { Dialect, StoreAdapter } from './types.js';

/** Where a mirror lives, as the dialect that claimed `--db` parsed it (`path` for a file, `url` for a server). */
export interface StoreLocation {
  readonly dialect: Dialect;
  readonly path?: string;
  readonly url?: string;
  readonly schema?: string;
}

/** The schema a new, empty database can get in one transaction, prepared at build time from these migrations. */
export interface FreshSchema {
  /** migrationsHash() of the folder it was prepared from. */
  migrationsHash: string;
  /** The migrations it holds, in name order (recorded in kysely_migration with the time it is applied). */
  migrations: string[];
  /** CREATE statements in an order that makes them: tables, indexes, triggers, views. */
  statements: string[];
  /** The rows the replay left (the migrator's ledger, the repeatable objects' hashes). */
  tables: { table: string; rows: Record<string, unknown>[] }[];
}

/** What the migrator (run-migrations.ts) asks of the database beyond Kysely's Migrator. */
export interface MigratorSupport {
  /** The schema unqualified names land in, or undefined where a database has one namespace. */
  currentSchema(db: Kysely<any>): Promise<string | undefined>;
  /** The connection Kysely's Migrator is given for `schema`: introspecting that schema alone. */
  withinSchema(db: Kysely<any>, schema: string): Kysely<any>;
  /** Taken first in the transaction that makes the repeatable objects, so two processes never make them together. */
  lockRepeatables(trx: Kysely<any>): Promise<void>;
  /** Whether the current schema holds the table. */
  hasTable(db: Kysely<any>, table: string): Promise<boolean>;
  /**
   * Indexes a first load into an empty table leaves out and builds at its end (sqlite/sqlite-first-load.ts),
   * as the repeatable object `deferred-indexes` sees them: made again at an open when a load that never
   * ended left one out. Absent where a dialect leaves none out.
   */
  deferredIndexes?: {
    /** Their text, what the repeatable's hash is taken of. */
    definition: string;
    missing(db: Kysely<any>): Promise<boolean>;
    build(db: Kysely<any>): Promise<void>;
  };
  /** A new database made from the prepared schema instead of replaying every migration, where the dialect keeps one. */
  freshSchema?: {
    read(migrationsFolder: string): Promise<FreshSchema | undefined>;
    isEmpty(db: Kysely<any>): Promise<boolean>;
    /** Makes it in one transaction if the database is still empty then (its statements in one `script` where given); false if it was not. */
    apply(db: Kysely<any>, prepared: FreshSchema, script?: (statements: string) => void): Promise<boolean>;
  };
}

/** A driver's errors read: by code, or by message where the driver gives none. */
export interface DialectErrors {
  /** Codes of errors the values written caused (a type, a constraint, a size): the same values fail again. */
  record: RegExp;
  /** What stopped the store, in words (storage-causes.ts), by the error's code. */
  codes: readonly (readonly [RegExp, string])[];
  /** The same, by message. */
  messages: readonly (readonly [RegExp, string])[];
}

export interface StoreDialect<L extends StoreLocation = StoreLocation> {
  readonly name: Dialect;
  /** How `--db` names a database of this dialect, for messages ('postgres://...'). */
  readonly urlForms: string;
  /** The location when `url` is this dialect's, else undefined; a ConfigError when it is but cannot be used. */
  parseUrl(url: string, schema: string | undefined): L | undefined;
  /** The location for messages: the file, or the URL without its password. */
  describe(location: L): string;
  /** The file the location names (none for a server or an in-memory database). */
  fileOf(location: L): string | undefined;
  /** Whether two locations of this dialect name the same database. */
  same(a: L, b: L): boolean;
  /** The adapter on the location; the driver loads only here. */
  open(location: L, opts: { logger?: Logger; readOnly?: boolean; bounds: StoreBounds }): Promise<StoreAdapter>;
  /** Error codes of a database that cannot be reached yet (starting up, busy): opening again may succeed. */
  readonly transientCodes: readonly string[];
  /** What the driver's errors mean (storage-errors.ts). */
  readonly errors: DialectErrors;
  readonly analystSql: AnalystSql;
  readonly migrator: MigratorSupport;
}
