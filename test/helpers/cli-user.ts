// What a user does from a shell, for tests that sync through the door they open: `ds-mirror …` spawned
// against a sandbox (compiled dist/: `npm run build` first), optionally as if run some hours later
// (shifted-clock.mjs moves the child's clock, nothing else), and the mirror read with the operating
// system's own tools: `sqlite3` for a SQLite file, `psql` for PostgreSQL.
import { execFile, execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TestStore } from './stores.js';
import { LAUNCHER_FLAGS } from './launcher.js';

const run = promisify(execFile);

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment that points `ds-mirror` at the test's sandbox and store, with `config` (none when ''). */
export function mirrorEnv(sandbox: { url: string; apiKey: string }, t: TestStore, config = ''): NodeJS.ProcessEnv {
  return {
    DS_BASE_URL: sandbox.url,
    DS_API_KEY: sandbox.apiKey,
    DS_DB: t.url,
    DS_DB_SCHEMA: t.schema ?? '',
    DS_CONFIG: config,
    DS_LOG_LEVEL: 'error',
  };
}

/** Runs `ds-mirror` on the test's store and sandbox with a config file in `dir` (empty unless given). */
export function mirrorCli(
  sandbox: { url: string; apiKey: string },
  t: TestStore,
  dir: string,
  settings: Record<string, unknown> = {},
): (args: string[], opts?: { hoursLater?: number }) => Promise<CliResult> {
  const config = join(dir, 'config.json');
  writeFileSync(config, JSON.stringify(settings));
  return async (args, opts = {}) => {
    const env = {
      ...process.env,
      ...mirrorEnv(sandbox, t, config),
      DS_TEST_CLOCK_SHIFT_HOURS: String(opts.hoursLater ?? 0),
    };
    const node = ['--import', './test/helpers/shifted-clock.mjs', ...LAUNCHER_FLAGS, 'bin/ds-mirror.js', ...args];
    try {
      const { stdout, stderr } = await run(process.execPath, node, { env, timeout: 120_000 });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };
}

/** The rows of one query, each a list of its values as text, read with `sqlite3` or `psql`. */
export function readWithShellTool(t: TestStore, query: string): string[][] {
  const out = t.url.startsWith('sqlite:')
    ? execFileSync('sqlite3', ['-readonly', '-separator', '\t', t.url.slice('sqlite:'.length), query], { encoding: 'utf8' })
    : execFileSync('psql', [t.url, '-qAt', '-F', '\t', '-v', 'ON_ERROR_STOP=1', '-c', `set search_path to ${t.schema}`, '-c', query], {
        encoding: 'utf8',
      });
  return out
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('\t'));
}

/** One number a query answers. */
export function countWithShellTool(t: TestStore, query: string): number {
  return Number(readWithShellTool(t, query)[0]?.[0]);
}
