// What a command needs from the global options: the configuration, a logger, and the store.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import type { Logger } from 'pino';
import { createClient, type ApiClient, type RequestGate } from '../client/index.js';
import { DEFAULT_DB, loadConfig, requireService, type Config, type ConfigFlags } from '../config.js';
import { ConfigError } from '../errors.js';
import { createLogger } from '../logger.js';
import { locationFile, openStore, parseStoreUrl } from '../store/index.js';
import type { Store } from '../store/types.js';
import type { CliIo } from './io.js';

export interface CommandContext {
  config: Readonly<Config>;
  logger: Logger;
}

export function commandContext(command: Command, io: CliIo): CommandContext {
  const config = loadConfig(command.optsWithGlobals<ConfigFlags>(), io.env);
  return { config, logger: createLogger(config.logLevel) };
}

export function openConfiguredStore(ctx: CommandContext, migrate = true): Promise<Store> {
  checkDbFolder('--db', ctx.config.db, ctx.config.dbSchema);
  return openStore({ url: ctx.config.db, schema: ctx.config.dbSchema, logger: ctx.logger, migrate });
}

/**
 * A SQLite file may be new, its folder may not: a typo in --db must not leave a tree of folders and an
 * empty mirror behind. The default folder (data/) is the one created on first use.
 */
export function checkDbFolder(flag: string, url: string, schema?: string): void {
  const location = parseStoreUrl(url, schema);
  const file = locationFile(location);
  if (file === undefined) return;
  const folder = dirname(resolve(file));
  if (existsSync(folder)) return;
  if (url === DEFAULT_DB) {
    mkdirSync(folder, { recursive: true });
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
    ...options,
    limits: config.limits,
    timeoutMs: config.timeoutMs,
    retries: config.retries,
    maxResponseBytes: config.maxResponseBytes,
    logger,
  });
}
