// Jobs are data: one JSON file each. The defaults are the files of the top-level `jobs/` folder; a user's
// own are the files of the folder `jobsDir` names, which add jobs or replace a default of the same name
// (`"enabled": false` turns one off). A bad file is one line naming the file and the field.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
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
  return { jobs, refused };
}

function parseJobFile(path: string): JobDef {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError(`${path}: not a JSON job file (${(error as Error).message})`);
  }
  const result = jobFile.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new ConfigError(`${path}: ${issue.path.join('.') || '(the file)'}: ${issue.message}`);
  }
  return { ...result.data, file: path };
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
  return { jobs: [...jobs.values()], refused: mine.refused };
}

/** The default jobs: the files of the top-level `jobs/` folder, in name order (as `ds-mirror jobs` lists them). */
export const defaultJobs: readonly JobDef[] = loadJobFiles(DEFAULT_JOBS_DIR);
