// A year at real sizes, compressed: the daemon's default schedule (jobs/) over the sandbox's real profile
// (about 133,000 assets; `--scale` for a smaller one), one simulated day at a time, into a SQLite file
// with the default history retention (90 days: src/sync/prune-history.ts; the sync prunes after each run). Each day the sandbox's data changes
// (--update/--add/--remove per day) and its monitoring service makes the day's events and alerts; then
// every job that fires that day runs once (the five-minute, hourly and twice-daily jobs compressed to one
// run reading the whole day; the weekly and monthly ones on their day), on the sandbox's clock, so the
// rows' times and the history's validity are the simulated ones. Reported per month: the file's size, its
// growth, the history tables' share (row_history, alert_history) and the run time; at the end: what a
// history retention of 30, 90 or 180 days keeps it to before and after VACUUM (on copies), every view's
// count(*) and first 100 rows in the bundled SQLite and in Python's sqlite3 (the OS's), and peak memory.
// The sandbox runs in its own process (its memory is not the mirror's).
//   npx tsx bench/year.ts [--profile real | --scale 10] [--months 12] [--step-days 1] [--views 3] [--update 0.02] [--add 0.001] [--remove 0.0008] [--trace]
//     (--trace: each step's seconds per job on stderr, to see where a simulated day goes)
//   npx tsx bench/year.ts --scale 10 --step-days 7 --trace --keep DIR
//     (the year as measured in bench/RESULTS.md: one tick a simulated week, the daily rates compounded; a
//     daily tick at scale 10 costs about 75 s on two shared cores, its full passes of events and alerts
//     the most, so a year of them takes hours; a weekly tick keeps about 80% of the history's bytes)
//   npx tsx bench/year.ts --profile real --days 21 --keep DIR
//     (the first 21 days only, reported per week; DIR/mirror.db is kept)
//   npx tsx bench/year.ts --report DIR/mirror.db [--retention 7,14]
//     (the end of the year measured again on a kept mirror, as of its last run: retention, VACUUM, views)
//   npx tsx bench/year.ts --store postgres [--db postgres://.../empty] --scale 2 --json FILE
//     (a PostgreSQL year: into --db, else a throwaway cluster of the installed server; sizes from
//     pg_database_size; retention on template copies; the readers through bench/analyst-queries.ts)
// --cpu-prof-day N: this process's CPU profile of the N-th simulated day alone (its jobs), written to
// year-day-N.cpuprofile (open it in Chrome's DevTools): where a day of the schedule goes, first load excluded.
// --resume FILE: a SQLite mirror an earlier run of this bench kept (the same --scale, --step-days and
// rates), continued from its last tick: the sandbox is advanced tick by tick to that day (its changes
// are seeded, so it serves what it served then), that tick runs again (its stopped pass resumes at its
// checkpoint) and the year goes on. Back up FILE first: the run writes to it.
// --json FILE: the results so far, rewritten after every simulated day (each day's file size and each
// job's CPU seconds, this process's and the sandbox's), every month and at the end.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { pino } from 'pino';
import { ANALYST_VIEWS } from '../schema/views/index.js';
import { createClient } from '../src/client/index.js';
import { MIRROR_SCHEMA } from '../src/mirror-schema/index.js';
import { configureJobs, jobStreams, nextRuns } from '../src/scheduler/index.js';
import { defaultJobs } from '../src/scheduler/job-files.js';
import { openStore, type Store } from '../src/store/index.js';
import { runSync } from '../src/sync/engine.js';
import { DEFAULT_RETENTION_DAYS } from '../src/sync/prune-history.js';
import { syncSettings } from '../src/sync/settings.js';
import { startPgCluster, type PgCluster } from '../test/helpers/pg-cluster.js';
import { cpuMark, cpuSince, postgresBytes, postgresRetention, readersAtTheEnd } from './year-measure.js';

const { values: args } = parseArgs({
  options: {
    profile: { type: 'string' },
    scale: { type: 'string', default: '10' },
    months: { type: 'string', default: '12' },
    update: { type: 'string', default: '0.02' },
    add: { type: 'string', default: '0.001' },
    remove: { type: 'string', default: '0.0008' },
    'step-days': { type: 'string', default: '1' },
    views: { type: 'string', default: '3' },
    days: { type: 'string' },
    keep: { type: 'string' },
    report: { type: 'string' },
    retention: { type: 'string' },
    trace: { type: 'boolean', default: false },
    store: { type: 'string', default: 'sqlite' },
    db: { type: 'string' },
    json: { type: 'string' },
    'cpu-prof-day': { type: 'string' },
    resume: { type: 'string' },
  },
});
const PG = args.store === 'postgres';
const REAL = args.profile === 'real';
const MONTHS = Number(args.months);
const CHANGE = { updateFraction: Number(args.update), addFraction: Number(args.add), removeFraction: Number(args.remove) };
const START = Date.parse('2025-01-01T00:00:00Z');
const DAY_MS = 86_400_000;
/** Simulated days per step: 1 runs each job once a day; more is a cheaper, coarser year (fewer versions kept). */
const STEP_DAYS = Number(args['step-days']);
/** Monitoring views configured for the alert backfill (the default config has none; alerts need some). */
const VIEWS = Number(args.views);
const MB = 1024 * 1024;
/** Simulated days in all when --days is given (reported per week), else the months' days (reported per month). */
const DAYS = args.days ? Number(args.days) : undefined;

interface Sandbox {
  pid: number;
  url: string;
  apiKey: string;
  views: string[];
  now(): Promise<Date>;
  advance(seconds: number): Promise<void>;
  stop(): Promise<void>;
}

/** The sandbox in its own process, its clock pinned at START, the views it prints kept for the backfill. */
async function startSandbox(): Promise<Sandbox> {
  const size = REAL ? ['--profile', 'real', '--quota', 'v1=1000000000/month'] : ['--scale', String(args.scale)];
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'sandbox/cli.ts', '--port', '0', '--seed', '42', '--control', '--start', new Date(START).toISOString(), ...size],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! });
  const found = { url: '', apiKey: '', views: [] as string[] };
  const ready = new Promise<void>((resolve) => {
    lines.on('line', (line) => {
      found.url ||= /listening on (\S+)/.exec(line)?.[1] ?? '';
      found.apiKey ||= /API key: (\S+)/.exec(line)?.[1] ?? '';
      const view = /^\s+([0-9a-f]{8}-[0-9a-f-]{27})\s/.exec(line)?.[1];
      if (view) found.views.push(view);
      if (/^monitoring views/.test(line) || (found.views.length > 0 && !view)) resolve();
    });
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await Promise.race([ready, exited.then(() => Promise.reject(new Error('the sandbox exited')))]);
  await new Promise((r) => setTimeout(r, 500)); // the rest of the view list
  const control = async (path: string, body?: object) => {
    const res = await fetch(`${found.url}/_sandbox/${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { 'x-api-key': found.apiKey, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  return {
    ...found,
    pid: child.pid!,
    now: async () => new Date(String((await control('clock')).now)),
    advance: async (seconds) => {
      const per = (f: number) => 1 - (1 - f) ** (seconds / 86_400); // the daily rates over the step
      await control('advance', {
        seconds,
        updateFraction: per(CHANGE.updateFraction),
        addFraction: per(CHANGE.addFraction),
        removeFraction: per(CHANGE.removeFraction),
      });
    },
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

const jobs = configureJobs(defaultJobs, {}, 'UTC')
  .filter((job) => job.enabled)
  .map((job) => ({ job, streams: jobStreams(job) }));

/** The jobs with a cron time in [from, from + a step), in schedule order: each runs once in the step. */
function jobsOfStep(from: number): typeof jobs {
  return jobs.filter(({ job }) => nextRuns(job, 1, new Date(from - 1))[0]!.getTime() < from + STEP_DAYS * DAY_MS);
}

/** Times a job may run again after a failed run (under heavy load a run can stop: a lease or a request timed out). */
const RETRIES = 2;

/**
 * A job, run again after a failure as the daemon runs it again at its next time (a stopped pass resumes
 * at its checkpoint); each failure said on stderr and kept in --json's `failures`.
 */
async function runJob(store: Store, sb: Sandbox, entry: (typeof jobs)[number], clock: Date): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await runJobOnce(store, sb, entry, clock);
    } catch (err) {
      if (attempt >= RETRIES) throw err;
      const failure = { day: clock.toISOString(), job: entry.job.name, error: (err as Error).message };
      results.failures.push(failure);
      process.stderr.write(`year: ${failure.day}: ${failure.error}; running it again\n`);
    }
  }
}

async function runJobOnce(store: Store, sb: Sandbox, entry: (typeof jobs)[number], clock: Date): Promise<number> {
  const fast = { requestsPerMinute: 100_000_000, concurrency: 8 };
  const client = createClient({
    baseUrl: sb.url,
    apiKey: sb.apiKey,
    limits: { v1: fast, charts: fast, open: fast, tokenUnlocks: fast, monitoring: fast },
    clock: () => clock.getTime(),
  });
  const settings = syncSettings({});
  settings.mode = entry.job.mode;
  settings.monitoring = { ...settings.monitoring, views: sb.views.slice(0, VIEWS) };
  try {
    const result = await runSync({
      client,
      store,
      logger: pino({ level: 'warn' }, pino.destination(2)),
      settings,
      streams: entry.streams,
      clock: () => clock,
    });
    if (result.outcome !== 'success')
      throw new Error(
        `${entry.job.name}: ${JSON.stringify(result.streams.filter((s) => s.outcome !== 'success').map((s) => [s.stream, s.error]))}`,
      );
    return result.runId;
  } finally {
    await client.close();
  }
}

function fileBytes(file: string): number {
  return statSync(file).size + (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);
}

/** Bytes per table (its indexes included), from dbstat. */
function tableBytes(file: string): Map<string, number> {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db
      .prepare(
        `select coalesce(m.tbl_name, s.name) as name, sum(s.pgsize) as bytes from dbstat s left join sqlite_master m on m.name = s.name group by 1`,
      )
      .all() as { name: string; bytes: number }[];
    return new Map(rows.map((r) => [r.name, r.bytes]));
  } finally {
    db.close();
  }
}

interface Month {
  month: string;
  days: number;
  runs: number;
  seconds: number;
  bytes: number;
  rowHistory: number;
  alertHistory: number;
  versions: number;
  alerts: number;
  liveAssets: number;
  /** Per job: runs, wall seconds, CPU seconds of this process and of the sandbox. */
  cpu: Record<string, JobCost>;
}

interface JobCost {
  runs: number;
  wall: number;
  self: number;
  sandbox: number;
}

/** Each simulated day: its date, the store's size after it, and the CPU seconds its jobs cost. */
interface Day {
  day: string;
  bytes: number;
  wall: number;
  self: number;
  sandbox: number;
}

/** What --json holds: rewritten after every day, so a run stopped early leaves what it measured. */
const results: {
  args: typeof args;
  started: string;
  days: Day[];
  months: Month[];
  failures: { day: string; job: string; error: string }[];
  resumedFrom?: { tick: string; bytes: number };
  end?: Record<string, unknown>;
} = {
  args,
  started: new Date().toISOString(),
  failures: [],
  days: [],
  months: [],
};

function saveResults(): void {
  if (args.json) writeFileSync(args.json, `${JSON.stringify(results, null, 1)}\n`);
}

const count = async (store: Store, query: string) => Number((await sql.raw<{ n: number }>(query).execute(store.db)).rows[0]!.n);

/** The store's size and its history tables' (SQLite: the file and dbstat; PostgreSQL: relation sizes). */
async function storeBytes(store: Store, file: string): Promise<{ bytes: number; rowHistory: number; alertHistory: number }> {
  if (PG) return postgresBytes(store);
  await sql`pragma wal_checkpoint(TRUNCATE)`.execute(store.db);
  const tables = tableBytes(file);
  return {
    bytes: fileBytes(file),
    rowHistory: tables.get('row_history') ?? 0,
    alertHistory: (tables.get('alert_history') ?? 0) + (tables.get('alert_days') ?? 0),
  };
}

async function monthFigures(store: Store, file: string, month: string, days: number, runs: number, seconds: number): Promise<Month> {
  return {
    month,
    days,
    runs,
    seconds,
    ...(await storeBytes(store, file)),
    cpu: {},
    versions: await count(store, 'select count(*) as n from row_history'),
    alerts: await count(store, 'select count(*) as n from alert_history'),
    liveAssets: await count(store, 'select count(*) as n from assets where deleted_at is null'),
  };
}

/** The compressed year: returns the figures of each month. */
async function simulate(store: Store, sb: Sandbox, file: string, from: number): Promise<Month[]> {
  const months: Month[] = [];
  let day = from;
  const last = DAYS === undefined ? Date.UTC(2025, MONTHS, 1) : START + DAYS * DAY_MS;
  const first = DAYS === undefined ? new Date(from).getUTCMonth() : Math.floor((from - START) / (7 * DAY_MS));
  for (let m = first; day < last; m++) {
    const end = Math.min(last, DAYS === undefined ? Date.UTC(2025, m + 1, 1) : START + (m + 1) * 7 * DAY_MS);
    const started = performance.now();
    let [days, runs] = [0, 0];
    const cost: Record<string, JobCost> = {};
    for (; day < end; day += STEP_DAYS * DAY_MS, days += STEP_DAYS) {
      const profiling = await startDayProfile(1 + (day - START) / DAY_MS);
      const dayStart = { t: performance.now(), cpu: cpuMark(sb.pid) };
      const trace = [await timed(sb, cost, 'advance', () => (day > from ? sb.advance((STEP_DAYS * DAY_MS) / 1000) : Promise.resolve()))];
      const clock = await sb.now();
      for (const entry of jobsOfStep(day)) {
        trace.push(await timed(sb, cost, entry.job.name, () => runJob(store, sb, entry, clock)));
        runs++;
      }
      const spent = cpuSince(dayStart.cpu, sb.pid);
      await profiling?.stop();
      const date = new Date(day).toISOString().slice(0, 10);
      const wall = (performance.now() - dayStart.t) / 1000;
      results.days.push({ day: date, bytes: PG ? (await postgresBytes(store)).bytes : fileBytes(file), wall, ...spent });
      saveResults();
      if (args.trace) process.stderr.write(`year: ${date}: ${trace.join(', ')} (wall s / CPU s this process + sandbox)\n`);
    }
    const month = await monthFigures(
      store,
      file,
      new Date(end - DAY_MS).toISOString().slice(0, DAYS === undefined ? 7 : 10),
      days,
      runs,
      (performance.now() - started) / 1000,
    );
    month.cpu = cost;
    months.push(month);
    results.months = months;
    saveResults();
    process.stderr.write(
      `year: ${month.month}: ${(month.bytes / MB).toFixed(1)} MB (row_history ${(month.rowHistory / MB).toFixed(1)}, alerts ${(month.alertHistory / MB).toFixed(1)}), ` +
        `${month.versions} versions, ${month.alerts} alerts, ${month.liveAssets} live assets, ${month.seconds.toFixed(0)} s, peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB\n`,
    );
  }
  return months;
}

/** With --cpu-prof-day N, on day N: the inspector's profiler started; stop() writes the profile. */
async function startDayProfile(dayNumber: number): Promise<{ stop(): Promise<void> } | null> {
  if (Number(args['cpu-prof-day']) !== dayNumber) return null;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(`year-day-${dayNumber}.cpuprofile`, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

/** Runs one step of a day, adding its wall and CPU seconds to `cost`; its trace entry. */
async function timed(sb: Sandbox, cost: Record<string, JobCost>, name: string, step: () => Promise<unknown>): Promise<string> {
  const from = { t: performance.now(), cpu: cpuMark(sb.pid) };
  await step();
  const wall = (performance.now() - from.t) / 1000;
  const cpu = cpuSince(from.cpu, sb.pid);
  const c = (cost[name] ??= { runs: 0, wall: 0, self: 0, sandbox: 0 });
  c.runs++;
  c.wall += wall;
  c.self += cpu.self;
  c.sandbox += cpu.sandbox;
  return `${name} ${wall.toFixed(1)}/${cpu.self.toFixed(1)}+${cpu.sandbox.toFixed(1)}`;
}

/** What a retention of `days` keeps the file to, on a copy: pruned as the sync prunes, then VACUUM. */
function withRetention(file: string, days: number, now: Date): { pruned: number; bytes: number; vacuumed: number } {
  const copy = `${file}.retention-${days}`;
  copyFileSync(file, copy);
  const db = new Database(copy);
  try {
    const cutoff = new Date(now.getTime() - days * DAY_MS).toISOString();
    const pruned = db.prepare('delete from row_history where valid_to < ?').run(cutoff).changes;
    db.pragma('wal_checkpoint(TRUNCATE)');
    const bytes = fileBytes(copy);
    db.exec('vacuum');
    db.pragma('wal_checkpoint(TRUNCATE)');
    return { pruned, bytes, vacuumed: fileBytes(copy) };
  } finally {
    db.close();
    rmSync(copy, { force: true });
    rmSync(`${copy}-wal`, { force: true });
    rmSync(`${copy}-shm`, { force: true });
  }
}

const PYTHON = `import json, sqlite3, sys, time
con = sqlite3.connect(sys.argv[1])
out = {"version": sqlite3.sqlite_version}
for view in json.loads(sys.argv[2]):
    t = time.process_time(); con.execute(f"select count(*) from {view}").fetchall(); c = time.process_time() - t
    t = time.process_time(); con.execute(f"select * from {view} limit 100").fetchall(); p = time.process_time() - t
    out[view] = [c * 1000, p * 1000]
print(json.dumps(out))`;

/** Per view: CPU ms of count(*) and of the first 100 rows, in the bundled SQLite and in Python's. */
function viewTimes(file: string): { bundled: Map<string, number[]>; python: Map<string, number[]>; pythonVersion: string } {
  const views = ANALYST_VIEWS.map((v) => v.name);
  const db = new Database(file, { readonly: true });
  const bundled = new Map<string, number[]>();
  try {
    for (const view of views) {
      let t = process.cpuUsage();
      db.prepare(`select count(*) from ${view}`).all();
      const c = process.cpuUsage(t).user / 1000;
      t = process.cpuUsage();
      db.prepare(`select * from ${view} limit 100`).all();
      bundled.set(view, [c, process.cpuUsage(t).user / 1000]);
    }
  } finally {
    db.close();
  }
  const r = spawnSync('python3', ['-c', PYTHON, file, JSON.stringify(views)], { encoding: 'utf8', maxBuffer: 16 * MB });
  const parsed = JSON.parse(r.stdout) as Record<string, unknown>;
  const python = new Map(views.map((v) => [v, parsed[v] as number[]]));
  return { bundled, python, pythonVersion: String(parsed.version) };
}

/** The simulated months (or weeks) as a table. */
function periodsReport(sbViews: number, months: Month[]): string[] {
  const mb = (n: number) => (n / MB).toFixed(1);
  const out: string[] = [];
  const size = REAL ? 'profile real' : `scale ${args.scale}`;
  out.push(
    `Sandbox ${size}, ${months.length} ${DAYS === undefined ? 'month' : 'week'}(s) from 2025-01 in steps of ${STEP_DAYS} day(s), ${Math.min(VIEWS, sbViews)} monitoring view(s) backfilled, ` +
      `changes per day: ${JSON.stringify(CHANGE)}; the default history retention (${DEFAULT_RETENTION_DAYS} days).\n`,
  );
  out.push(
    `| ${DAYS === undefined ? 'month' : 'week to'} | days | runs | run time (s) | file (MB) | growth (MB) | row_history (MB, share) | alerts (MB, share) | versions | alerts | live assets |`,
  );
  out.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  months.forEach((m, i) => {
    const growth = m.bytes - (i > 0 ? months[i - 1]!.bytes : (results.resumedFrom?.bytes ?? 0));
    const share = (n: number) => `${mb(n)} (${((100 * n) / m.bytes).toFixed(0)}%)`;
    out.push(
      `| ${m.month} | ${m.days} | ${m.runs} | ${m.seconds.toFixed(0)} | ${mb(m.bytes)} | ${mb(growth)} | ${share(m.rowHistory)} | ${share(m.alertHistory)} | ${m.versions} | ${m.alerts} | ${m.liveAssets} |`,
    );
  });
  return out;
}

/** What the file holds at the end: versions per table, retention and VACUUM, the views' times, peak memory. */
function endReport(file: string, retention: [number, ReturnType<typeof withRetention>][], times: ReturnType<typeof viewTimes>): string[] {
  const mb = (n: number) => (n / MB).toFixed(1);
  const out: string[] = ['\nVersions kept per table at the end (row_history; bytes of raw and typed_row, without pages and indexes):\n'];
  out.push('| table | versions | MB |', '|---|---:|---:|');
  for (const t of historyByTable(file)) out.push(`| \`${t.table}\` | ${t.versions} | ${mb(t.bytes)} |`);
  out.push(
    '\nHistory retention applied at the end (on copies): versions pruned, the file before and after VACUUM (no auto-vacuum: pruned pages are reused, the file does not shrink by itself).\n',
  );
  out.push('| retention | versions pruned | file (MB) | after VACUUM (MB) |');
  out.push('|---|---:|---:|---:|');
  out.push(`| none | 0 | ${mb(fileBytes(file))} | – |`);
  for (const [days, r] of retention) out.push(`| ${days} days | ${r.pruned} | ${mb(r.bytes)} | ${mb(r.vacuumed)} |`);
  const slow = (m: Map<string, number[]>) => [...m].sort((a, b) => Math.max(...b[1]) - Math.max(...a[1]));
  out.push(
    `\nViews at the end, CPU ms of count(*) / first 100 rows, the 8 slowest in Python's sqlite3 (SQLite ${times.pythonVersion}) beside the bundled SQLite:\n`,
  );
  out.push('| view | Python count | Python 100 rows | bundled count | bundled 100 rows |');
  out.push('|---|---:|---:|---:|---:|');
  for (const [view, [c, p]] of slow(times.python).slice(0, 8)) {
    const [bc, bp] = times.bundled.get(view)!;
    out.push(`| \`${view}\` | ${c!.toFixed(0)} | ${p!.toFixed(0)} | ${bc!.toFixed(0)} | ${bp!.toFixed(0)} |`);
  }
  const over = slow(times.python).filter(([, t]) => Math.max(...t) > 200).length;
  out.push(
    `\n${over} of ${times.python.size} views over 200 ms in Python's sqlite3. Peak RSS of this process: ${mb(process.resourceUsage().maxRSS * 1024)} MB.`,
  );
  return out;
}

function historyByTable(file: string): { table: string; versions: number; bytes: number }[] {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare(
        `select table_name as "table", count(*) as versions, sum(length(raw) + coalesce(length(typed_row), 0)) as bytes
         from row_history group by table_name order by bytes desc`,
      )
      .all() as { table: string; versions: number; bytes: number }[];
  } finally {
    db.close();
  }
}

const RETENTION_DAYS = (args.retention ?? '30,90,180').split(',').map(Number);

/** The end of the year (or of --report's file): retention on copies, the views' times, the report. */
async function atTheEnd(file: string, end: Date, periods: string[]): Promise<void> {
  const retention = RETENTION_DAYS.map((days) => [days, withRetention(file, days, end)] as [number, ReturnType<typeof withRetention>]);
  const times = viewTimes(file);
  const readers = readersAtTheEnd({ file });
  results.end = {
    retention,
    python: Object.fromEntries(times.python),
    bundled: Object.fromEntries(times.bundled),
    readers,
    peakRssMb: peakRss(),
  };
  saveResults();
  process.stdout.write(`${[...periods, ...endReport(file, retention, times), '', readers].join('\n')}\n`);
}

const peakRss = () => process.resourceUsage().maxRSS / 1024;

/** A PostgreSQL year's end: versions per table, retention and VACUUM FULL on copies, the readers. */
async function atTheEndPostgres(store: Store, url: string, end: Date, periods: string[]): Promise<void> {
  const { rows: perTable } = await sql<{
    table: string;
    versions: string;
    bytes: string;
  }>`select table_name as "table", count(*) as versions,
      sum(pg_column_size(raw) + coalesce(pg_column_size(typed_row), 0)) as bytes from row_history group by 1 order by 3 desc`.execute(
    store.db,
  );
  const size = await postgresBytes(store);
  await store.close();
  const retention = RETENTION_DAYS.map((days) => [days, postgresRetention(url, days, end)] as const);
  const readers = readersAtTheEnd({ url });
  results.end = { perTable, size, retention, readers, peakRssMb: peakRss() };
  saveResults();
  const mb = (n: number) => (n / MB).toFixed(1);
  const out = [
    ...periods,
    '\nVersions kept per table at the end (bytes as stored, pg_column_size):\n',
    '| table | versions | MB |',
    '|---|---:|---:|',
  ];
  for (const t of perTable) out.push(`| \`${t.table}\` | ${t.versions} | ${mb(Number(t.bytes))} |`);
  out.push('\nRetention on template copies: versions pruned, pg_database_size after VACUUM, after VACUUM FULL.\n');
  out.push('| retention | versions pruned | database (MB) | after VACUUM FULL (MB) |', '|---|---:|---:|---:|');
  out.push(`| none | 0 | ${mb(size.bytes)} | – |`);
  for (const [days, r] of retention) out.push(`| ${days} days | ${r.pruned} | ${mb(r.bytes)} | ${mb(r.vacuumed)} |`);
  out.push(`\nPeak RSS of this process: ${peakRss().toFixed(0)} MB.\n`, readers);
  process.stdout.write(`${out.join('\n')}\n`);
}

if (args.report) {
  // A kept mirror (--keep) measured again: opened once by this code (its views made again), then read.
  const store = await openStore({ migrations: MIRROR_SCHEMA, url: `sqlite:${args.report}` });
  const { rows } = await sql<{ t: string }>`select max(started_at) as t from sync_runs`.execute(store.db);
  await store.close();
  await atTheEnd(args.report, new Date(rows[0]!.t), [`${args.report}, as of its last run (${rows[0]!.t}).`]);
  process.exit(0);
}

/** With --resume, the tick to go on from (the kept mirror's last), the sandbox advanced to it; else START. */
async function resumeFrom(store: Store, sb: Sandbox): Promise<number> {
  if (!args.resume) return START;
  const { rows } = await sql<{ t: string }>`select max(started_at) as t from sync_runs`.execute(store.db);
  const step = STEP_DAYS * DAY_MS;
  const from = START + Math.floor((Date.parse(rows[0]!.t) - START) / step) * step;
  for (let tick = START + step; tick <= from; tick += step) await sb.advance(step / 1000);
  // The same service (seed, scale, clock), restarted on another port: the mirror records the new address.
  await sql`delete from mirrored_service`.execute(store.db);
  results.resumedFrom = { tick: new Date(from).toISOString(), bytes: fileBytes(args.resume) };
  process.stderr.write(
    `year: resuming ${args.resume} at the tick of ${new Date(from).toISOString().slice(0, 10)}, sandbox at ${(await sb.now()).toISOString()}\n`,
  );
  return from;
}

/** Where the year is written: a SQLite file in DIR, or a PostgreSQL database (--db, else a new cluster's `year`). */
async function openYearStore(dir: string): Promise<{ store: Store; url: string; cluster?: PgCluster }> {
  if (!PG) {
    const url = `sqlite:${args.resume ?? join(dir, 'mirror.db')}`;
    return { store: await openStore({ migrations: MIRROR_SCHEMA, url }), url };
  }
  const cluster = args.db ? undefined : await startPgCluster();
  let url = args.db ?? cluster!.url;
  if (cluster) {
    spawnSync('psql', [cluster.url, '-X', '-c', 'create database year'], { encoding: 'utf8' });
    url = url.replace(/\/postgres$/, '/year');
  }
  return { store: await openStore({ migrations: MIRROR_SCHEMA, url }), url, cluster };
}

const dir = args.keep ?? mkdtempSync(join(tmpdir(), 'ds-bench-year-'));
const file = args.resume ?? join(dir, 'mirror.db');
const sb = await startSandbox();
const opened = await openYearStore(dir);
const store = opened.store;
try {
  const months = await simulate(store, sb, file, await resumeFrom(store, sb));
  const end = await sb.now();
  const periods = periodsReport(sb.views.length, months);
  if (PG) await atTheEndPostgres(store, opened.url, end, periods);
  else {
    await store.close();
    await atTheEnd(file, end, periods);
  }
} finally {
  await store.close().catch(() => {});
  await sb.stop();
  await opened.cluster?.stop();
  if (!args.keep) rmSync(dir, { recursive: true, force: true });
}
