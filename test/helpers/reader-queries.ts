// A query run the way an analyst runs it: Python's sqlite3 module (the OS's SQLite, 3.40 on Debian 12) on
// the SQLite file, psql on PostgreSQL. Rows come back as JSON objects.
import { spawnSync } from 'node:child_process';
import type { TestStore } from './stores.js';

const PYTHON = `import json, sqlite3, sys
con = sqlite3.connect(sys.argv[1])
con.row_factory = sqlite3.Row
print(json.dumps([dict(r) for r in con.execute(sys.argv[2])]))`;

function run(command: string, args: string[]): string {
  const r = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw new Error(`${command} is not runnable (${r.error.message}): install it (apt-get install python3 postgresql-client)`);
  if (r.status !== 0) throw new Error(`${command} failed: ${r.stderr}`);
  return r.stdout;
}

/** The SQLite version Python's sqlite3 module reads with. */
export function pythonSqliteVersion(): string {
  return run('python3', ['-c', 'import sqlite3; print(sqlite3.sqlite_version)']).trim();
}

/** `query`'s rows as the analyst's reader gives them: Python's sqlite3 for a SQLite file, psql for PostgreSQL. */
export function readerRows(t: TestStore, query: string): Record<string, unknown>[] {
  if (t.store.dialect === 'sqlite') return JSON.parse(run('python3', ['-c', PYTHON, t.url.replace(/^sqlite:/, ''), query]));
  const out = run('psql', [
    t.url,
    '-X',
    '-q',
    '-A',
    '-t',
    '-v',
    'ON_ERROR_STOP=1',
    '-c',
    `set search_path to ${t.schema ?? 'public'}`,
    '-c',
    `select coalesce(json_agg(q), '[]') from (${query.trim().replace(/;$/, '')}) q`,
  ]);
  return JSON.parse(out);
}
