// What a command needs from the global options: the configuration, a logger, and the store.
import { resolve } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import type { Logger } from 'pino';
import type { ApiClient, RequestGate } from '../client/index.js';
import { DEFAULT_DB, loadConfig, type Config, type ConfigFlags } from '../config.js';
import { ConfigError } from '../errors.js';
import { createLogger, humanLines } from '../logger.js';
import {
  configuredClient as clientOf,
  mirrorAt,
  mirrorExists as exists,
  openConfiguredStore as openStoreOf,
  openEmptyMirror,
} from '../mirror/configured.js';
import { locationFile, openStore, parseStoreUrl } from '../store/index.js';
import type { Store } from '../store/types.js';
import type { CliIo } from './io.js';

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
  return openStoreOf(ctx.config, ctx.logger, migrate);
}

/**
 * The mirror a read-only command reads (status, budget, export, views...): opened so that nothing is
 * written, and never made: a SQLite file that is not there is one line saying where it was looked for.
 */
export function openMirrorToRead(ctx: CommandContext): Promise<Store> {
  requireMirror(ctx);
  return openStore({ ...mirrorAt(ctx.config, ctx.logger), readOnly: true });
}

/**
 * The mirror to read, or an empty one in memory where there is none yet: what `budget` and `jobs` project
 * for a schedule before the first sync (nothing used; the service's published sizes). Nothing is made.
 */
export function openMirrorOrEmpty(ctx: CommandContext): Promise<Store> {
  return mirrorExists(ctx) ? openMirrorToRead(ctx) : openEmptyMirror(ctx.logger);
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
  return exists(ctx.config);
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

/** The client a command builds from the configuration (see mirror/configured.ts). */
export function configuredClient(ctx: CommandContext, options: { gate?: RequestGate; maxRequests?: number } = {}): ApiClient {
  return clientOf(ctx.config, ctx.logger, options);
}
