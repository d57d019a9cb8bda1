// Jobs are data: one JSON file each. The defaults are the files of the top-level `jobs/` folder; a user's
// own are the files of the folder `jobsDir` names, which add jobs or replace a default of the same name
// (`"enabled": false` turns one off). A bad file is one line naming the file and the field; only regular
// files of a bounded size are read (a FIFO named `*.json` would block the reader for ever), and two files
// naming one job are refused together (neither silently wins).
import { closeSync, constants, existsSync, fstatSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { Stats } from 'node:fs';
import { fileProblem } from '../config.js';
import { ConfigError } from '../errors.js';
import type { JobDef, RefusedJob } from './job-def.js';

const jobFile = z
  .object({
    name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and dashes'),
    description: z.string().min(1),
    /** What the job buys: why it runs when it runs (the file's comment). */
    why: z.string().optional(),
    schedule: z.string().min(1),
    streams: z.array(z.string().min(1)).min(1),
    mode: z.enum(['full', 'incremental']),
    enabled: z.boolean().optional(),
    timeZone: z.string().min(1).optional(),
  })
  .strict();

/** A job file is a few hundred bytes: anything larger is refused unread (a log or a dump dropped in the folder). */
export const MAX_JOB_FILE_BYTES = 64 * 1024;

/** The package's own `jobs/`: beside `src/` from the sources, two levels further up from `dist/src/`. */
export const DEFAULT_JOBS_DIR: string =
  [new URL('../../jobs/', import.meta.url), new URL('../../../jobs/', import.meta.url)]
    .map((u) => fileURLToPath(u))
    .find((dir) => existsSync(dir)) ?? fileURLToPath(new URL('../../jobs/', import.meta.url));

/** Every `*.json` of `dir`, in name order, each checked; one clear line for the first bad one. */
export function loadJobFiles(dir: string): JobDef[] {
  const { jobs, refused } = readJobFiles(dir);
  if (refused[0]) throw new ConfigError(refused[0].problem);
  return jobs;
}

/** Every `*.json` of `dir`, in name order: the good ones, and a line for each bad one (the others still run). */
export function readJobFiles(dir: string): { jobs: JobDef[]; refused: RefusedJob[] } {
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort();
  } catch (error) {
    throw new ConfigError(`cannot read the jobs folder ${dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const jobs: JobDef[] = [];
  const refused: RefusedJob[] = [];
  for (const file of files) {
    try {
      jobs.push(parseJobFile(join(dir, file)));
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      refused.push({ name: file, problem: error.message });
    }
  }
  return withoutDuplicates(jobs, refused);
}

/** Two files naming one job: neither runs (which one was meant cannot be known), one line names both. */
function withoutDuplicates(jobs: JobDef[], refused: RefusedJob[]): { jobs: JobDef[]; refused: RefusedJob[] } {
  const byName = new Map<string, JobDef[]>();
  for (const job of jobs) byName.set(job.name, [...(byName.get(job.name) ?? []), job]);
  for (const [name, same] of byName) {
    if (same.length < 2) continue;
    const files = same.map((j) => j.file).join(' and ');
    refused.push({ name, problem: `${files} both name the job "${name}": neither runs; rename or remove one of them` });
  }
  return { jobs: jobs.filter((j) => byName.get(j.name)!.length === 1), refused };
}

function parseJobFile(path: string): JobDef {
  let json: unknown;
  try {
    json = JSON.parse(readJobFile(path));
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`${path}: not a JSON job file (${(error as Error).message})`);
  }
  // Without zod's generated parser: compiling it (new Function per object schema) costs more than the few files it checks.
  const result = jobFile.safeParse(json, { jitless: true });
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new ConfigError(`${path}: ${issue.path.join('.') || '(the file)'}: ${issue.message}`);
  }
  return { ...result.data, file: path };
}

/**
 * The text of a regular file of at most MAX_JOB_FILE_BYTES. Opened without blocking, then checked on the
 * open descriptor: a FIFO would otherwise block the open (and a read) until a writer came, a device
 * never end; the check and the read see the same file.
 */
function readJobFile(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    // A socket cannot be opened at all (ENXIO): say what it is rather than why the open failed.
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat && !stat.isFile()) throw notAFile(path, stat);
    throw new ConfigError(`${path}: cannot be read (${fileProblem(error)})`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw notAFile(path, stat);
    if (stat.size > MAX_JOB_FILE_BYTES) throw new ConfigError(`${path}: ${stat.size} bytes, more than a job file's ${MAX_JOB_FILE_BYTES}`);
    const buffer = Buffer.alloc(MAX_JOB_FILE_BYTES + 1);
    let length = 0;
    for (let n = 1; n > 0 && length < buffer.length; length += n) n = readSync(fd, buffer, length, buffer.length - length, null);
    // Grown since the check (a file being written): refused as too large, never read without end.
    if (length > MAX_JOB_FILE_BYTES) throw new ConfigError(`${path}: more than a job file's ${MAX_JOB_FILE_BYTES} bytes`);
    return buffer.subarray(0, length).toString('utf8');
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`${path}: cannot be read (${fileProblem(error)})`);
  } finally {
    closeSync(fd);
  }
}

function notAFile(path: string, stat: Stats): ConfigError {
  return new ConfigError(`${path}: not a regular file (${kindOf(stat)}): a job file is a JSON file`);
}

function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a file';
}

/** The defaults, with a user's folder of jobs on top (same name: replaced; new name: added). */
export function jobDefinitions(userDir?: string): JobDef[] {
  const { jobs, refused } = jobCatalog(userDir);
  if (refused[0]) throw new ConfigError(refused[0].problem);
  return jobs;
}

/** Like jobDefinitions, with the user's files that cannot be read set apart instead of stopping the rest. */
export function jobCatalog(userDir?: string): { jobs: JobDef[]; refused: RefusedJob[] } {
  const jobs = new Map(defaultJobs.map((j) => [j.name, j]));
  const mine = userDir ? readJobFiles(userDir) : { jobs: [], refused: [] };
  for (const job of mine.jobs) jobs.set(job.name, job);
  // A name two of the user's files claim replaces the default too: which file was meant is unknown, so
  // neither they nor the default run. (A refused file's name ends in .json, never a job's name.)
  for (const r of mine.refused) jobs.delete(r.name);
  return { jobs: [...jobs.values()], refused: mine.refused };
}

/** The default jobs: the files of the top-level `jobs/` folder, in name order (as `ds-mirror jobs` lists them). */
export const defaultJobs: readonly JobDef[] = loadJobFiles(DEFAULT_JOBS_DIR);
