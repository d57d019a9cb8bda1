// The readers an analyst opens a mirror with, each timing a list of queries the same way: one warm-up
// run, then `runs` runs, the median kept, with the rows of the last. SQLite through the SQLite this
// project bundles (better-sqlite3) and through the operating system's (Python's standard sqlite3 module,
// linked to the system's libsqlite3 like the sqlite3 tool: 3.40 on Debian 12); PostgreSQL through the
// store's own pool. SQLite readers report CPU time of the reading process (a shared machine's load
// inflates wall time, not CPU time); PostgreSQL wall time (the server's CPU is not the client's).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import type { Store } from '../src/store/index.js';

export interface Timing {
  ms: number;
  rows: number;
}

export interface Reader {
  /** Its name and version, as a column heading. */
  name: string;
  time(queries: readonly string[], runs: number): Promise<Timing[]>;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timeEach(queries: readonly string[], runs: number, once: (q: string) => Promise<Timing>): Promise<Timing[]> {
  const out: Timing[] = [];
  for (const query of queries) {
    let rows = 0;
    const times: number[] = [];
    for (let i = 0; i <= runs; i++) {
      const t = await once(query);
      rows = t.rows;
      if (i > 0) times.push(t.ms);
    }
    out.push({ ms: median(times), rows });
  }
  return out;
}

/** The bundled SQLite (better-sqlite3), the file opened read-only. */
export function bundledReader(file: string): Reader {
  const db = new Database(file, { readonly: true });
  const version = (db.prepare('select sqlite_version() as v').get() as { v: string }).v;
  return {
    name: `bundled SQLite ${version}`,
    async time(queries, runs) {
      try {
        return await timeEach(queries, runs, async (query) => {
          const started = process.cpuUsage();
          const rows = db.prepare(query).raw().all().length;
          const used = process.cpuUsage(started);
          return { ms: (used.user + used.system) / 1000, rows };
        });
      } finally {
        db.close();
      }
    },
  };
}

// Reads [queries, runs] as JSON on stdin; prints the version and a {ms, rows} per query.
const PYTHON = `
import json, sqlite3, sys, time
path = sys.argv[1]
queries, runs = json.load(sys.stdin)
con = sqlite3.connect('file:%s?mode=ro' % path, uri=True)
out = []
for q in queries:
    times = []
    for i in range(runs + 1):
        started = time.process_time()
        rows = len(con.execute(q).fetchall())
        if i > 0:
            times.append((time.process_time() - started) * 1000)
    times.sort()
    out.append({'ms': times[len(times) // 2], 'rows': rows})
print(json.dumps({'version': sqlite3.sqlite_version, 'timings': out}))
`;

/** The operating system's SQLite, through Python's standard sqlite3 module (`python` on PATH). */
export function pythonReader(file: string, python = 'python3'): Reader {
  const version = spawnSync(python, ['-c', 'import sqlite3; print(sqlite3.sqlite_version)'], { encoding: 'utf8' });
  if (version.status !== 0) throw new Error(`${python} is not runnable: install python3 (apt-get install python3)`);
  return {
    name: `Python sqlite3 ${version.stdout.trim()}`,
    async time(queries, runs) {
      const r = spawnSync(python, ['-c', PYTHON, file], {
        input: JSON.stringify([queries, runs]),
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      if (r.status !== 0) throw new Error(`${python}: ${r.stderr.trim().split('\n').slice(-3).join(' / ')}`);
      return (JSON.parse(r.stdout) as { timings: Timing[] }).timings;
    },
  };
}

/** PostgreSQL through the store's pool (wall time of each query, round trip included). */
export async function postgresReader(store: Store): Promise<Reader> {
  const { rows } = await sql<{ v: string }>`select current_setting('server_version') as v`.execute(store.db);
  return {
    name: `PostgreSQL ${rows[0]!.v.split(' ')[0]}`,
    time: (queries, runs) =>
      timeEach(queries, runs, async (query) => {
        const started = process.hrtime.bigint();
        const n = (await sql.raw(query).execute(store.db)).rows.length;
        return { ms: Number(process.hrtime.bigint() - started) / 1e6, rows: n };
      }),
  };
}

/**
 * PostgreSQL's CPU time: the server process serving one connection, read from /proc/<pid>/schedstat (a
 * server on this machine), parallel workers off so that the backend does all the work. On a machine other
 * engineers load, wall time measures the queue for a core; this measures the query.
 */
export async function postgresCpuReader(store: Store): Promise<Reader> {
  const { rows } = await sql<{ v: string }>`select current_setting('server_version') as v`.execute(store.db);
  return {
    name: `PostgreSQL ${rows[0]!.v.split(' ')[0]} CPU`,
    time: (queries, runs) =>
      store.db.connection().execute(async (db) => {
        const pid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]!.pid;
        const cpuNs = () => Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);
        await sql`set max_parallel_workers_per_gather = 0`.execute(db);
        return timeEach(queries, runs, async (query) => {
          const started = cpuNs();
          const n = (await sql.raw(query).execute(db)).rows.length;
          return { ms: (cpuNs() - started) / 1e6, rows: n };
        });
      }),
  };
}

/**
 * PostgreSQL through `psql` as an analyst runs it: one session, `\timing` (the client's wall time of each
 * query, its result received), the rows sent to /dev/null and counted by psql's ROW_COUNT.
 */
export function psqlReader(url: string): Reader {
  const version = spawnSync('psql', [url, '-X', '-At', '-c', 'show server_version'], { encoding: 'utf8' });
  if (version.status !== 0) throw new Error(`psql: ${version.stderr.trim()}`);
  return {
    name: `psql ${version.stdout.trim().split(' ')[0]}`,
    async time(queries, runs) {
      const script = ['\\timing on', '\\o /dev/null'];
      for (const query of queries) for (let i = 0; i <= runs; i++) script.push(`${query.replace(/;\s*$/, '')};`, '\\echo rows :ROW_COUNT');
      const r = spawnSync('psql', [url, '-X', '-q', '-v', 'ON_ERROR_STOP=1'], {
        input: `${script.join('\n')}\n`,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      if (r.status !== 0) throw new Error(`psql: ${r.stderr.trim().split('\n').slice(-3).join(' / ')}`);
      const times = [...r.stdout.matchAll(/^Time: ([\d.]+) ms/gm)].map((m) => Number(m[1]));
      const rows = [...r.stdout.matchAll(/^rows (\d+)/gm)].map((m) => Number(m[1]));
      if (times.length !== queries.length * (runs + 1))
        throw new Error(`psql: ${times.length} timings for ${queries.length * (runs + 1)} queries`);
      return queries.map((_, q) => {
        const at = q * (runs + 1);
        const warm = times.slice(at + 1, at + runs + 1).sort((a, b) => a - b);
        return { ms: warm[Math.floor(warm.length / 2)]!, rows: rows[at]! };
      });
    },
  };
}
