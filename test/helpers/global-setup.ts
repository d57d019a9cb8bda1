// Once per run: one PostgreSQL server (DS_TEST_PG_URL when given, else a throwaway cluster) and the
// migrated stores every test store is copied from (store-templates.ts). Every store test runs on both
// dialects, so no PostgreSQL is a loud failure, never a skip.
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { appendFileSync } from 'node:fs';
import { startPgCluster } from './pg-cluster.js';
import { machineCpu, machineProcesses, type MachineProcess, processCpu, serverCpu, serverCpuParts } from './process-cpu.js';
import { appendStatementStats, measuringSettings } from './server-statements.js';
import { makeStoreTemplates } from './store-templates.js';

/**
 * CPU the suite's server spends on nothing a test reads: compiling plans to machine code (JIT) for the views'
 * larger queries, and autovacuum visiting the hundreds of databases the tests make and drop. Benches keep
 * the defaults users have.
 */
const SUITE_SERVER_SETTINGS = ['jit=off', 'autovacuum=off'];

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
    sqliteTemplate: string;
    pgTemplate: string;
    pgPrefix: string;
    /** The throwaway cluster's postmaster (0 for DS_TEST_PG_URL): file-cpu.ts reads its CPU. */
    pgServerPid: number;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  // Vitest calls a global setup once for the root project and once for each project that runs files
  // (vitest.config.ts has none today; one that inherits it would make a second cluster and set of templates).
  // Projects read what the root provides (TestProject.getProvidedContext merges the root's in).
  if (!project.isRootProject()) return undefined;
  dropExtraCertificates();
  const hidden = hiddenCpu();
  const given = process.env.DS_TEST_PG_URL;
  let url: string;
  let stopServer: () => Promise<void>;
  if (given) {
    url = given;
    stopServer = () => dropTestSchemas(given);
  } else {
    let cluster;
    try {
      cluster = await startPgCluster([...SUITE_SERVER_SETTINGS, ...measuringSettings()]);
    } catch (err) {
      throw new Error(
        'The test suite runs every store test on SQLite and on PostgreSQL, and no PostgreSQL server could be ' +
          `started: ${(err as Error).message}. Install the server binaries (apt-get install -y postgresql) or set ` +
          'DS_TEST_PG_URL=postgres://user@host:port/db to use a running server.',
      );
    }
    url = cluster.url;
    stopServer = () => cluster.stop();
    hidden.server = cluster.pid;
  }
  const templates = await makeStoreTemplates(url);
  hidden.setupDone();
  project.provide('pgUrl', url);
  project.provide('sqliteTemplate', templates.sqliteFile);
  project.provide('pgTemplate', templates.pgDatabase);
  project.provide('pgPrefix', templates.pgPrefix);
  project.provide('pgServerPid', hidden.server ?? 0);
  return async () => {
    hidden.runDone();
    if (!given) await appendStatementStats(url);
    await templates.drop();
    await stopServer();
  };
}

/** The schemas the tests made on a server that outlives the run (DS_TEST_PG_URL). */
async function dropTestSchemas(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ nspname: string }>("select nspname from pg_namespace where nspname like 't\\_%'");
    for (const { nspname } of rows) await client.query(`drop schema if exists "${nspname}" cascade`);
  } finally {
    await client.end();
  }
}

/**
 * DS_TEST_CPU_LOG: the run's CPU the per-file lines (file-cpu.ts) do not hold, as lines of the same form
 * (name, wall s, own CPU s, children's CPU s): vitest's main process (it transforms and collects every file
 * for the workers) during global setup and over the run, the PostgreSQL server (its backends and background
 * processes) during setup and over the run, every process of the machine over the run (others' too), and
 * the rest of that by process name (otherProcesses).
 */
function hiddenCpu(): { server?: number; setupDone(): void; runDone(): void } {
  const log = process.env.DS_TEST_CPU_LOG;
  const start = {
    wall: performance.now(),
    main: processCpu('self')!,
    machine: machineCpu(),
    processes: log ? machineProcesses() : new Map(),
  };
  const line = (name: string, own: number, children = 0) =>
    log &&
    appendFileSync(
      log,
      `${[name, ((performance.now() - start.wall) / 1000).toFixed(2), own.toFixed(2), children.toFixed(2)].join('\t')}\n`,
    );
  const state = {
    server: undefined as number | undefined,
    setupDone() {
      const main = processCpu('self')!;
      line('#global-setup: vitest main', main.own - start.main.own, main.children - start.main.children);
      if (state.server) line('#global-setup: postgres server', serverCpu(state.server) ?? 0);
    },
    runDone() {
      const main = processCpu('self')!;
      line('#run: vitest main', main.own - start.main.own, main.children - start.main.children);
      if (state.server) {
        line('#run: postgres server', serverCpu(state.server) ?? 0);
        for (const [part, cpu] of Object.entries(serverCpuParts(state.server) ?? {})) line(`#run: postgres server, ${part}`, cpu);
      }
      line('#run: machine, every process', machineCpu() - start.machine);
      for (const [name, cpu] of otherProcesses(start.processes, state.server)) line(`#run: other processes, ${name}`, cpu);
    },
  };
  return state;
}

/** Below this a process group is not listed (a line each for every idle daemon would hide the few that count). */
const LISTED_CPU_S = 0.5;

/**
 * The machine's CPU over the run that neither vitest's main process nor the server's line holds, by process
 * name: this run's processes still alive at its end (`ours`: vitest's esbuild, a daemon a test left), the
 * ended processes reaped by a live ancestor outside the run (`pid 1` for orphans: a detached child whose
 * parent ended first), kernel threads, and other people's work on the machine (`not ours`).
 */
function otherProcesses(start: Map<string, MachineProcess>, server: number | undefined): [string, number][] {
  const end = machineProcesses();
  const byPid = new Map([...end.values()].map((p) => [p.pid, p]));
  const ours = (pid: number): boolean => {
    for (let p = byPid.get(pid); p; p = byPid.get(p.ppid)) if (p.ppid === process.pid) return true;
    return false;
  };
  const groups = new Map<string, number>();
  for (const [key, p] of end) {
    if (p.pid === process.pid || p.pid === server || p.ppid === server) continue; // lines of their own
    const cpu = p.cpu - (start.get(key)?.cpu ?? 0);
    if (cpu <= 0) continue;
    const group = `${ours(p.pid) ? 'ours' : p.pid === 1 ? 'pid 1 (orphans it reaped)' : 'not ours'}: ${p.name.split('/')[0]}`;
    groups.set(group, (groups.get(group) ?? 0) + cpu);
  }
  return [...groups].filter(([, cpu]) => cpu >= LISTED_CPU_S).sort((a, b) => b[1] - a[1]);
}

/**
 * Node parses NODE_EXTRA_CA_CERTS' bundle (here a 220 kB file) before any JavaScript, about 0.1 CPU-s in
 * every process: every spawned CLI, sandbox and worker. The suite speaks plain HTTP on loopback only, so its
 * processes go without it; the workers, forked after this, and their children inherit the environment.
 */
function dropExtraCertificates(): void {
  delete process.env.NODE_EXTRA_CA_CERTS;
}
