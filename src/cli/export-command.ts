// `ds-mirror export <table-or-view> --format csv|parquet --out file`: streamed in batches, with a progress
// bar on a terminal and one summary line at the end.
import { existsSync, statSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { ConfigError, DsMirrorError } from '../errors.js';
import cliProgress from 'cli-progress';
import { InvalidArgumentError, type Command } from 'commander';
import type { CliIo } from './io.js';
import { DEFAULT_BATCH_ROWS, exportRelation } from '../export/export-relation.js';
import type { ExportFormat } from '../export/file-writers.js';
import { commandContext, openMirrorToRead, wholeNumber } from './context.js';

const FORMATS: readonly ExportFormat[] = ['csv', 'parquet'];

export function exportCommand(program: Command, io: CliIo): void {
  program
    .command('export')
    .description('Write a table or view to a CSV or Parquet file (typed columns), streamed in batches')
    .argument('<table-or-view>', 'e.g. v_assets, v_events, market_stats (ds-mirror schema lists them)')
    .requiredOption('--out <file>', 'the file to write (replaced when complete)')
    .option('--format <format>', `csv or parquet (default: from the file's extension, else csv)`, (value: string) => {
      if (!(FORMATS as readonly string[]).includes(value)) throw new InvalidArgumentError(`format must be ${FORMATS.join(' or ')}.`);
      return value;
    })
    .option('--batch-rows <n>', `rows read and written at a time (default ${DEFAULT_BATCH_ROWS})`, wholeNumber('--batch-rows'))
    .option('--no-progress', 'no progress bar')
    .action(
      async (relation: string, opts: { out: string; format?: ExportFormat; batchRows?: number; progress: boolean }, command: Command) => {
        const ctx = commandContext(command, io);
        const format = opts.format ?? formatOf(opts.out);
        checkOutFolder(opts.out);
        const store = await openMirrorToRead(ctx);
        const bar =
          opts.progress && io.stderr.isTTY
            ? new cliProgress.SingleBar(
                { stream: io.stderr, format: ` ${relation} |{bar}| {value}/{total} rows`, hideCursor: true },
                cliProgress.Presets.shades_classic,
              )
            : null;
        try {
          const result = await exportRelation(store, {
            relation,
            format,
            file: opts.out,
            batchRows: opts.batchRows || undefined,
            onProgress: bar
              ? (written, total) => (written === 0 ? bar.start(total, 0) : (bar.setTotal(total), bar.update(written)))
              : undefined,
          });
          bar?.stop();
          io.stdout.write(`${relation}: ${result.rows} rows, ${result.columns} columns → ${opts.out} (${format})\n`);
        } catch (error) {
          throw fileError(error, opts.out);
        } finally {
          bar?.stop();
          await store.close();
        }
      },
    );
}

/**
 * The format a file's extension names: .csv (or none) and .parquet. Any other extension (.xlsx, .json)
 * is refused before any file is written: writing CSV into it would mislead whoever opens it.
 */
function formatOf(file: string): ExportFormat {
  const ext = extname(file).toLowerCase();
  if (ext === '.parquet') return 'parquet';
  if (ext === '.csv' || ext === '') return 'csv';
  throw new ConfigError(`--out ${file}: ${ext} is not a format export writes; use .csv or .parquet, or name one with --format`);
}

/** The folder --out writes in must be there: a typo must not run the whole export to fail at the end. */
function checkOutFolder(file: string): void {
  const folder = dirname(resolve(file));
  if (!existsSync(folder))
    throw new ConfigError(`--out ${file}: the folder ${folder} does not exist; create it first, or correct the path`);
  if (!statSync(folder).isDirectory()) throw new ConfigError(`--out ${file}: ${folder} is not a folder`);
}

const FILE_PROBLEMS: Record<string, string> = {
  EACCES: 'permission denied: choose a folder you can write, or change its permissions',
  EPERM: 'permission denied: choose a folder you can write, or change its permissions',
  EROFS: 'the file system is read-only: choose another folder',
  ENOENT: 'the folder does not exist (any more); create it first, or correct the path',
  EISDIR: 'that is a folder: name a file in it',
  ENOSPC: 'the disk is full: free space or choose another disk (nothing was kept)',
  EDQUOT: 'the disk quota is exceeded: free space or choose another disk (nothing was kept)',
};

/** A file system error as one plain line naming the file (Node's own names the .partial and the syscall). */
function fileError(error: unknown, file: string): unknown {
  const code = (error as { code?: string }).code ?? '';
  const problem = FILE_PROBLEMS[code];
  if (problem === undefined) return error;
  const line = `cannot write ${file}: ${problem}`;
  return code === 'ENOSPC' || code === 'EDQUOT' ? new DsMirrorError('DS_EXPORT_WRITE', line) : new ConfigError(line);
}
