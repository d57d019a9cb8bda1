// What bench/year.ts measures beside the simulation: the CPU each job costs (this process and the
// sandbox's, so that a simulated day is priced in CPU, not in the wall time of a loaded machine), a
// PostgreSQL year's sizes (pg_database_size and the history tables' relations), what a retention keeps a
// PostgreSQL database to (on copies made with CREATE DATABASE ... TEMPLATE, then VACUUM FULL), and the
// end-of-year views and worked examples in each reader (bench/analyst-queries.ts, run on the kept mirror).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import type { Store } from '../src/store/index.js';

/** CPU seconds (user + system) of this process and of the sandbox's, since `from`. */
export interface CpuMark {
  self: number;
  sandbox: number;
}

const TICKS_PER_SECOND = 100; // Linux's USER_HZ

/** The process's CPU seconds from /proc (0 where there is no /proc). */
function processCpu(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND; // utime, stime
  } catch {
    return 0;
  }
}

export function cpuMark(sandboxPid: number): CpuMark {
  const u = process.cpuUsage();
  return { self: (u.user + u.system) / 1e6, sandbox: processCpu(sandboxPid) };
}

export function cpuSince(from: CpuMark, sandboxPid: number): CpuMark {
  const now = cpuMark(sandboxPid);
  return { self: now.self - from.self, sandbox: now.sandbox - from.sandbox };
}

/** A PostgreSQL year's sizes: the database, row_history and the alerts' tables, their indexes and TOAST included. */
export async function postgresBytes(store: Store): Promise<{ bytes: number; rowHistory: number; alertHistory: number }> {
  const { rows } = await sql<{ bytes: string; rh: string; ah: string }>`select pg_database_size(current_database()) as bytes,
      pg_total_relation_size('row_history') as rh,
      pg_total_relation_size('alert_history') + pg_total_relation_size('alert_days') as ah`.execute(store.db);
  return { bytes: Number(rows[0]!.bytes), rowHistory: Number(rows[0]!.rh), alertHistory: Number(rows[0]!.ah) };
}

function psql(url: string, command: string): string {
  const r = spawnSync('psql', [url, '-X', '-At', '-v', 'ON_ERROR_STOP=1', '-c', command], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`psql: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

const databaseUrl = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

/**
 * What a retention of `days` keeps the database at `url` to (no connection may be open to it): a copy
 * made from it as a template, its versions ended before the cut-off deleted as the sync prunes, its size,
 * then VACUUM FULL (a plain VACUUM, what autovacuum runs, frees pages for reuse but returns none).
 */
export function postgresRetention(url: string, days: number, now: Date): { pruned: number; bytes: number; vacuumed: number } {
  const source = new URL(url).pathname.slice(1);
  const copy = `${source}_retention_${days}`;
  const admin = databaseUrl(url, 'template1');
  psql(admin, `drop database if exists ${copy}`);
  psql(admin, `create database ${copy} template ${source}`);
  try {
    const at = databaseUrl(url, copy);
    const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString();
    const pruned = Number(psql(at, `with d as (delete from row_history where valid_to < '${cutoff}' returning 1) select count(*) from d`));
    psql(at, 'vacuum');
    const bytes = Number(psql(at, 'select pg_database_size(current_database())'));
    psql(at, 'vacuum full');
    return { pruned, bytes, vacuumed: Number(psql(at, 'select pg_database_size(current_database())')) };
  } finally {
    psql(admin, `drop database if exists ${copy}`);
  }
}

/** The database at `url` after VACUUM FULL (what the default retention's file gives back at the end). */
export function postgresVacuumFull(url: string): number {
  psql(url, 'vacuum full');
  return Number(psql(url, 'select pg_database_size(current_database())'));
}

/** bench/analyst-queries.ts on the kept mirror: every view's count and first 100 rows and every worked example, in each reader. */
export function readersAtTheEnd(target: { file: string } | { url: string }): string {
  const where = 'file' in target ? ['--file', target.file] : ['--read-db', target.url];
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/analyst-queries.ts', ...where, '--runs', '3'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return r.status === 0 ? r.stdout : `bench/analyst-queries.ts failed (${r.status}): ${r.stderr.slice(-2000)}`;
}
