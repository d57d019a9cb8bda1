// `ds-mirror copy --from <db> --to <db>`: moves a whole mirror to another store (a user who starts on
// SQLite and outgrows it), then checks it row for row. Exit 2 when the target already holds rows
// (unless --force), 1 when the check finds a difference.
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { ConfigError } from '../errors.js';
import { describeLocation, locationFile, openStore, parseStoreUrl, sameLocation } from '../store/index.js';
import { copyStore, CopyTargetNotEmptyError, liveLeases, verifyStores, type CopyProgress } from '../copy/copy-store.js';
import type { StoreLocation } from '../store/index.js';
import type { Store } from '../store/types.js';
import { EXIT, type CliIo, type SetExit } from './io.js';
import { checkDbFolder, storeBounds } from '../mirror/configured.js';
import { commandContext, wholeNumber } from './context.js';
import { formatTable } from './table.js';
import { MIRROR_SCHEMA } from '../mirror-schema/index.js';

interface CopyFlags {
  from: string;
  to: string;
  fromSchema?: string;
  toSchema?: string;
  force?: boolean;
  verifyOnly?: boolean;
  batchRows?: number;
}

const PROGRESS_EVERY_MS = 2000;
const BIG_TABLE_ROWS = 50_000;

export function copyCommand(program: Command, io: CliIo, setExit: SetExit): void {
  program
    .command('copy')
    .description('Copy the whole mirror to another database (e.g. SQLite to PostgreSQL), then verify it row for row')
    .requiredOption('--from <db>', 'source: sqlite:path/file.db or postgres://...')
    .requiredOption('--to <db>', 'target: sqlite:path/file.db or postgres://... (created and migrated if new)')
    .option('--from-schema <name>', 'PostgreSQL schema of the source')
    .option('--to-schema <name>', 'PostgreSQL schema of the target')
    .option('--force', 'replace the rows a non-empty target holds')
    .option('--verify-only', 'compare the two databases row for row, copying nothing')
    .option('--batch-rows <n>', 'rows per read and per write transaction (default 2000)', wholeNumber('--batch-rows'))
    .action((flags: CopyFlags, command: Command) => runCopy(flags, command, io, setExit));
}

/** Copies (unless --verify-only) and verifies; the exit code says whether the two agree. */
async function runCopy(flags: CopyFlags, command: Command, io: CliIo, setExit: SetExit): Promise<void> {
  const ctx = commandContext(command, io);
  const from = location('--from', flags.from, flags.fromSchema);
  const to = location('--to', flags.to, flags.toSchema);
  const fromFile = locationFile(from);
  if (fromFile !== undefined && !existsSync(fromFile)) {
    throw new ConfigError(`--from: there is no SQLite file at ${fromFile}`);
  }
  if (sameLocation(from, to)) throw new ConfigError('--from and --to name the same database; give another target');
  if (flags.batchRows === 0) throw new ConfigError('--batch-rows must be at least 1.');
  checkDbFolder('--to', flags.to, flags.toSchema);

  const bounds = storeBounds(ctx.config);
  const source = await openStore({ migrations: MIRROR_SCHEMA, url: flags.from, schema: flags.fromSchema, logger: ctx.logger, bounds });
  let target: Store | undefined;
  try {
    target = await openStore({ migrations: MIRROR_SCHEMA, url: flags.to, schema: flags.toSchema, logger: ctx.logger, bounds });
    const started = Date.now();
    const busy = await liveLeases(source);
    if (busy.length > 0) {
      io.stderr.write(
        `ds-mirror: warning: the source is in use: ${busy.join(', ')}; rows it writes during the copy will show as differences, so stop its workers first\n`,
      );
    }
    const opts = { force: flags.force, batchRows: flags.batchRows, onProgress: progressLines(io.stderr) };
    const result = await (flags.verifyOnly ? verifyStores(source, target, opts) : copyStore(source, target, opts)).catch(
      (error: unknown) => {
        if (!(error instanceof CopyTargetNotEmptyError)) throw error;
        io.stderr.write(`ds-mirror: ${error.message}\n`);
        setExit(EXIT.usage);
        return null;
      },
    );
    if (!result) return;
    const rows = result.tables.map((t) => [t.table, t.rows, t.verified ? 'yes' : 'NO']);
    io.stdout.write(`${formatTable(['table', 'rows', 'verified'], rows)}\n`);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const where = `from ${describeLocation(from)} to ${describeLocation(to)}`;
    if (result.mismatch) {
      io.stderr.write(`ds-mirror: the copy ${where} differs from its source: ${result.mismatch}\n`);
      setExit(EXIT.failed);
      return;
    }
    const did = flags.verifyOnly ? 'compared' : 'copied';
    io.stdout.write(`${did} ${result.rows} rows in ${result.tables.length} tables ${where} in ${seconds} s; verified row for row\n`);
  } finally {
    await Promise.all([source.close(), target?.close()]);
  }
}

/** The store URL parsed, its error naming the flag it came from (parseStoreUrl speaks of --db). */
function location(flag: string, url: string, schema?: string): StoreLocation {
  if (schema !== undefined && !/^postgres(ql)?:\/\//i.test(url)) {
    throw new ConfigError(`${flag}-schema applies to PostgreSQL only: give a postgres:// URL to ${flag}, or drop ${flag}-schema`);
  }
  try {
    return parseStoreUrl(url, schema);
  } catch (error) {
    if (error instanceof ConfigError) throw new ConfigError(`${flag}: ${error.message}`);
    throw error;
  }
}

/** One stderr line per big table now and then, and when it is done. */
function progressLines(stderr: NodeJS.WriteStream): (p: CopyProgress) => void {
  let lastAt = 0;
  return (p) => {
    if (p.total < BIG_TABLE_ROWS) return;
    const now = Date.now();
    const edge = p.done === 0 || p.done >= p.total;
    if (!edge && now - lastAt < PROGRESS_EVERY_MS) return;
    lastAt = now;
    const verb = p.phase === 'copy' ? 'copying' : 'verifying';
    stderr.write(`${verb} ${p.table}: ${p.done}/${p.total} rows (${Math.floor((100 * p.done) / p.total)}%)\n`);
  };
}
