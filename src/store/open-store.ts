// Opens the mirror named by `--db`: the dialect that claims it opens its adapter, then the connection is
// checked and pending migrations applied. Errors name the database with its password redacted.
import { sql } from 'kysely';
import type { Logger } from 'pino';
import { ConfigError, DsMirrorError, RetriableError } from '../errors.js';
import { KyselyStore } from './kysely-store.js';
import type { Migrations } from './migrations.js';
import { pendingMigrations } from './run-migrations.js';
import { dialectOf } from './dialects.js';
import { describeLocation, parseStoreUrl, redactUrl } from './store-url.js';
import type { StoreAdapter } from './store-adapter.js';
import type { Store } from './types.js';
import { storageCause } from './storage-errors.js';
import { DEFAULT_STORE_BOUNDS, type StoreBounds } from './store-bounds.js';

export interface OpenStoreOptions {
  /** 'sqlite:path/to/file.db', a plain file path, ':memory:', or 'postgres://...'. */
  url: string;
  /** The migrations and repeatable objects the store is kept at (the mirror's: MIRROR_SCHEMA of src/mirror-schema/). */
  migrations: Migrations;
  /** PostgreSQL schema for every table (created if missing). */
  schema?: string;
  logger?: Logger;
  /** Apply pending migrations on open (default true; `ds-mirror migrate` opens without and prints them). */
  migrate?: boolean;
  /**
   * An existing mirror, opened so that nothing can be written (SQLite read-only, PostgreSQL read-only
   * sessions): no file, folder, schema or migration is made, and a database that is not a mirror, or
   * needs migrations first, is refused in one line.
   */
  readOnly?: boolean;
  /** How long to wait on the database (default DEFAULT_STORE_BOUNDS). */
  bounds?: StoreBounds;
}

/** Errors of a database not reachable yet, besides each dialect's own: opening again later may succeed. */
const TRANSIENT = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN'];

export async function openStore(opts: OpenStoreOptions): Promise<Store> {
  const location = parseStoreUrl(opts.url, opts.schema);
  const dialect = dialectOf(location);
  const where = describeLocation(location);
  const scrub = secretScrubber(opts.url);
  let adapter: StoreAdapter | undefined;
  try {
    adapter = await dialect.open(location, { logger: opts.logger, readOnly: opts.readOnly, bounds: opts.bounds ?? DEFAULT_STORE_BOUNDS });
    await sql`select 1`.execute(adapter.db);
  } catch (err) {
    await adapter?.close().catch(() => {});
    const code = (err as { code?: string }).code ?? '';
    // No `cause`: driver errors may carry the connection string.
    const OpenError = TRANSIENT.includes(code) || dialect.transientCodes.includes(code) ? RetriableError : DsMirrorError;
    throw new OpenError('DS_DB_OPEN', `cannot open the database ${where}: ${causeFirst(err)}${scrub(errorMessage(err))}`);
  }

  const store = new KyselyStore(adapter, opts.migrations, where);
  if (opts.readOnly) return readable(store, adapter, opts.migrations.folder, where, scrub);
  if (opts.migrate === false) return store;
  const outcome = await store.migrate();
  for (const r of outcome.results.filter((r) => r.status === 'Success')) {
    opts.logger?.debug({ migration: r.name, db: where }, 'migration applied');
  }
  if (outcome.error !== undefined) {
    await store.close();
    const failed = outcome.results.find((r) => r.status === 'Error')?.name ?? 'loading migrations';
    throw new DsMirrorError(
      'DS_DB_MIGRATE',
      `migration ${failed} failed on ${where}: ${causeFirst(outcome.error)}${scrub(errorMessage(outcome.error))}`,
    );
  }
  return store;
}

/** The store, once its ledger says it is a mirror of this version's schema; else closed, with one line. */
async function readable(
  store: Store,
  adapter: StoreAdapter,
  folder: string,
  where: string,
  scrub: (text: string) => string,
): Promise<Store> {
  const pending = await pendingMigrations(adapter.db, adapter, folder).catch(async (err: unknown) => {
    await store.close();
    throw new DsMirrorError('DS_DB_OPEN', `cannot read the database ${where}: ${causeFirst(err)}${scrub(errorMessage(err))}`);
  });
  if (pending !== null && pending.length === 0) return store;
  await store.close();
  throw new ConfigError(
    pending === null
      ? `${where} is not a ds-mirror mirror (it has no migration ledger): point --db at a mirror, or run ds-mirror sync to make one`
      : `the mirror ${where} needs ${pending.length} migration(s) of this ds-mirror version before it can be read: run ds-mirror migrate`,
  );
}

/** "the disk is full: " and the like, when the store itself is the problem. */
function causeFirst(err: unknown): string {
  const cause = storageCause(err);
  return cause ? `${cause}: ` : '';
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Removes the URL's password wherever a driver message might echo it. */
function secretScrubber(url: string): (text: string) => string {
  let password = '';
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {
    // not a URL (a file path): nothing to hide
  }
  return (text) => (password ? text.split(password).join('***') : text).split(url).join(redactUrl(url));
}
