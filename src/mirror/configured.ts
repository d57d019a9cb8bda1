// What the configuration opens: the mirror's store (where it is, its schema, how long to wait on it) and
// the client of the service (its key, limits, time-outs, retries and response cap). Every command and
// every run opens them here, so a setting means the same in each.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Logger } from 'pino';
import { createClient, type ApiClient, type RequestGate } from '../client/index.js';
import { DEFAULT_DB, requireService, type Config } from '../config.js';
import { ConfigError } from '../errors.js';
import { MIRROR_SCHEMA } from '../mirror-schema/index.js';
import { DEFAULT_STORE_BOUNDS, locationFile, openStore, parseStoreUrl, type StoreBounds } from '../store/index.js';
import type { Store } from '../store/types.js';

/** The webhook receiver's port when the configuration names none. */
export const DEFAULT_RECEIVER_PORT = 8787;

/** The daemon's /healthz, /metrics and /status port when the configuration names none. */
export const DEFAULT_METRICS_PORT = 9464;

/** The configured mirror, opened to write (migrated unless `migrate` is false); a SQLite file is made where there is none. */
export function openConfiguredStore(config: Readonly<Config>, logger: Logger, migrate = true): Promise<Store> {
  checkDbFolder('--db', config.db, config.dbSchema);
  return openStore({ ...mirrorAt(config, logger), migrate });
}

/** What opening the configured mirror takes: where it is, its schema, and how long to wait on it. */
export function mirrorAt(config: Readonly<Config>, logger: Logger) {
  return { migrations: MIRROR_SCHEMA, url: config.db, schema: config.dbSchema, logger, bounds: storeBounds(config) };
}

/** An empty mirror in memory: what is planned or projected where there is no mirror yet (nothing is made). */
export function openEmptyMirror(logger: Logger): Promise<Store> {
  return openStore({ migrations: MIRROR_SCHEMA, url: ':memory:', logger });
}

/** The configured bounds on the database's waits, each key over its default. */
export function storeBounds(config: Readonly<Config>): StoreBounds {
  const d = DEFAULT_STORE_BOUNDS;
  return {
    statementMs: config.dbStatementTimeoutMs ?? d.statementMs,
    migrationMs: config.dbMigrationTimeoutMs ?? d.migrationMs,
    connectMs: config.dbConnectTimeoutMs ?? d.connectMs,
    busyMs: config.dbBusyTimeoutMs ?? d.busyMs,
  };
}

/** Whether the configured mirror exists (a PostgreSQL one is assumed to: opening it says). */
export function mirrorExists(config: Readonly<Config>): boolean {
  const file = locationFile(parseStoreUrl(config.db, config.dbSchema));
  return file === undefined || existsSync(file);
}

/**
 * A SQLite file may be new, its folder may not: a typo in --db must not leave a tree of folders and an
 * empty mirror behind. The default folder (data/) is the one created on first use (`make`: not by --plan).
 */
export function checkDbFolder(flag: string, url: string, schema?: string, make = true): void {
  const location = parseStoreUrl(url, schema);
  const file = locationFile(location);
  if (file === undefined) return;
  const folder = dirname(resolve(file));
  if (existsSync(folder)) return;
  if (url === DEFAULT_DB) {
    if (make) mkdirSync(folder, { recursive: true });
    return;
  }
  throw new ConfigError(
    `${flag} ${file}: the folder ${folder} does not exist; create it first, or correct the path (the file itself is created)`,
  );
}

/**
 * The client built from the configuration: the service and its key, limits, time-outs, retries and
 * response cap; `gate` counts requests in the usage ledger (omitted only where no mirror is open),
 * `maxRequests` ends the run cleanly after that many.
 */
export function configuredClient(
  config: Readonly<Config>,
  logger: Logger,
  options: { gate?: RequestGate; maxRequests?: number } = {},
): ApiClient {
  return createClient({
    ...requireService(config),
    keySource: config.apiKeySource ?? undefined,
    ...options,
    limits: config.limits,
    timeoutMs: config.timeoutMs,
    retries: config.retries,
    maxResponseBytes: config.maxResponseBytes,
    logger,
  });
}
