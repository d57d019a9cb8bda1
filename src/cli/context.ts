// What a command needs from the global options: the configuration, a logger, and the store.
import { InvalidArgumentError, type Command } from 'commander';
import type { Logger } from 'pino';
import { loadConfig, type Config, type ConfigFlags } from '../config.js';
import { createLogger } from '../logger.js';
import { openStore } from '../store/index.js';
import type { Store } from '../store/types.js';
import type { CliIo } from '../cli.js';

export interface CommandContext {
  config: Readonly<Config>;
  logger: Logger;
}

export function commandContext(command: Command, io: CliIo): CommandContext {
  const config = loadConfig(command.optsWithGlobals<ConfigFlags>(), io.env);
  return { config, logger: createLogger(config.logLevel) };
}

export function openConfiguredStore(ctx: CommandContext, migrate = true): Promise<Store> {
  return openStore({ url: ctx.config.db, schema: ctx.config.dbSchema, logger: ctx.logger, migrate });
}

/** Parses a whole number option, or one clear line on what is wrong. */
export function wholeNumber(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`${name} must be a whole number.`);
    return n;
  };
}
