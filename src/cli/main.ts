// The `ds-mirror` command line. Every command reads its configuration once (flags > environment >
// config file > defaults); bad input is one clear line on stderr and exit code 2.
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { ConfigError, errorAction } from '../errors.js';
import { registerCommands } from './commands.js';
import { EXIT, type CliIo } from './io.js';

export { EXIT, type CliIo } from './io.js';

export async function main(argv: readonly string[], io: CliIo = process): Promise<number> {
  const program = new Command('ds-mirror')
    .description('Keep a local SQL mirror of the Data Service: catalog, market data, token unlocks, monitoring and webhook alerts.')
    .option('-c, --config <file>', 'JSON config file (default: ./ds-mirror.config.json if present; env DS_CONFIG)')
    .option('--db <url>', 'database: sqlite:path/file.db or postgres://... (env DS_DB; default sqlite:data/mirror.db)')
    .option('--db-schema <name>', 'PostgreSQL schema for the tables (env DS_DB_SCHEMA)')
    .option('--base-url <url>', 'the Data Service base URL (env DS_BASE_URL)')
    .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent (env DS_LOG_LEVEL; default info)')
    .version(packageVersion(), '-V, --version', 'print the version')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      // One line: commander's own message, then where to look.
      outputError: (s, write) =>
        write(
          `ds-mirror: ${s
            .trim()
            .replace(/^error: /, '')
            .replace(/\s*\n\s*/g, ' ')} (run with --help for usage)\n`,
        ),
    });
  let code: number = EXIT.ok;
  try {
    await registerCommands(program, io, (c) => (code = c), argv);
    await program.parseAsync(argv as string[]);
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof ConfigError) {
      io.stderr.write(`ds-mirror: ${error.message}\n`);
      return EXIT.usage;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`ds-mirror: ${message}\n`);
    return errorAction(error) === 'stop' ? EXIT.stopped : EXIT.failed;
  }
}

/** The version in package.json: two folders up from src/cli/, three from dist/src/cli/. */
function packageVersion(): string {
  for (const up of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'ds-mirror' && pkg.version) return pkg.version;
    } catch {
      // not this folder
    }
  }
  return 'unknown';
}
