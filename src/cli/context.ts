// What a command needs from the global options: the configuration, a logger, and the store.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import type { Logger } from 'pino';
import { createClient, type ApiClient, type RequestGate } from '../client/index.js';
import { DEFAULT_DB, loadConfig, requireService, type Config, type ConfigFlags } from '../config.js';
import { ConfigError } from '../errors.js';
import { createLogger, humanLines } from '../logger.js';
import { DEFAULT_STORE_BOUNDS, locationFile, openStore, parseStoreUrl, type StoreBounds } from '../store/index.js';
import type { Store } from '../store/types.js';
import type { CliIo } from './io.js';
import { MIRROR_SCHEMA } from '../mirror-schema/index.js';

export interface CommandContext {
  config: Readonly<Config>;
  logger: Logger;
}

export function commandContext(command: Command, io: CliIo): CommandContext {
  const config = loadConfig(command.optsWithGlobals<ConfigFlags>(), io.env);
  // JSON lines for journald, files and log shippers; a person at a terminal reads one human line each.
  return { config, logger: createLogger(config.logLevel, io.stderr.isTTY ? humanLines(io.stderr) : undefined) };
}

export function openConfiguredStore(ctx: CommandContext, migrate = true): Promise<Store> {
  checkDbFolder('--db', ctx.config.db, ctx.config.dbSchema);
  return openStore({ ...mirrorAt(ctx), migrate });
}

/**
 * The mirror a read-only command reads (status, budget, export, views...): opened so that nothing is
 * written, and never made: a SQLite file that is not there is one line saying where it was looked for.
 */
export function openMirrorToRead(ctx: CommandContext): Promise<Store> {
  requireMirror(ctx);
  return openStore({ ...mirrorAt(ctx), readOnly: true });
}

/** What opening the configured mirror takes: where it is, its schema, and how long to wait on it. */
function mirrorAt(ctx: CommandContext) {
  const { config } = ctx;
  return { migrations: MIRROR_SCHEMA, url: config.db, schema: config.dbSchema, logger: ctx.logger, bounds: storeBounds(config) };
}

/** The configured bounds on the database's waits, each key over its default. */
export function storeBounds(config: Config): StoreBounds {
  const d = DEFAULT_STORE_BOUNDS;
  return {
    statementMs: config.dbStatementTimeoutMs ?? d.statementMs,
    migrationMs: config.dbMigrationTimeoutMs ?? d.migrationMs,
    connectMs: config.dbConnectTimeoutMs ?? d.connectMs,
    busyMs: config.dbBusyTimeoutMs ?? d.busyMs,
  };
}

/**
 * The mirror to read, or an empty one in memory where there is none yet: what `budget` and `jobs` project
 * for a schedule before the first sync (nothing used; the service's published sizes). Nothing is made.
 */
export function openMirrorOrEmpty(ctx: CommandContext): Promise<Store> {
  return mirrorExists(ctx) ? openMirrorToRead(ctx) : openStore({ migrations: MIRROR_SCHEMA, url: ':memory:', logger: ctx.logger });
}

/**
 * The mirror `sync --plan` reads: a SQLite file that is not there yet is not made (the plan of a first
 * run is planned on an empty store in memory); one that is there is opened as a sync opens it.
 */
export function openMirrorToPlan(ctx: CommandContext): Promise<Store> {
  if (mirrorExists(ctx)) return openConfiguredStore(ctx);
  checkDbFolder('--db', ctx.config.db, ctx.config.dbSchema, false); // a typo in --db is said, as a sync would
  return openStore({ migrations: MIRROR_SCHEMA, url: ':memory:', logger: ctx.logger });
}

/** Refuses, in one line that says where it looked, a SQLite mirror that is not there (nothing is made). */
export function requireMirror(ctx: CommandContext): void {
  if (mirrorExists(ctx)) return;
  const { db, dbSchema } = ctx.config;
  const file = locationFile(parseStoreUrl(db, dbSchema)) as string;
  const how = db === DEFAULT_DB ? 'the default --db, relative to this folder' : `--db ${db}`;
  throw new ConfigError(`no mirror at ${resolve(file)} (${how}): run ds-mirror sync to make one, or point --db (or DS_DB) at the mirror`);
}

/** Whether the mirror a command would read exists (a PostgreSQL one is assumed to: opening it says). */
export function mirrorExists(ctx: CommandContext): boolean {
  const file = locationFile(parseStoreUrl(ctx.config.db, ctx.config.dbSchema));
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

/** Parses a count that must be at least 1 (a limit of 0 would run and do nothing), or one clear line. */
export function positiveNumber(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${name} must be a whole number of at least 1.`);
    return n;
  };
}

/** Parses a whole number option, or one clear line on what is wrong. */
export function wholeNumber(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`${name} must be a whole number.`);
    return n;
  };
}

/**
 * The client a command builds from the configuration: the service and its key, limits, time-outs,
 * retries and response cap; `gate` counts requests in the usage ledger (omitted only where no mirror is
 * open), `maxRequests` is sync's --max-requests.
 */
export function configuredClient(ctx: CommandContext, options: { gate?: RequestGate; maxRequests?: number } = {}): ApiClient {
  const { config, logger } = ctx;
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
