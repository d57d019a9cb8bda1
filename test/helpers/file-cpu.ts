// Opt-in (DS_TEST_CPU_LOG=<file>): one line per test file with its wall time and the CPU the worker spent on
// it, its own and its finished child processes' (spawned CLIs, sqlite3, psql), read from /proc/self/stat,
// then the PostgreSQL test databases it cloned and reused (`databases <cloned>+<reused>`, reused-databases.ts)
// and the throwaway PostgreSQL server's CPU meanwhile (`server <s>`: the file's own when one worker runs,
// `--poolOptions.forks.maxForks=1 --poolOptions.forks.minForks=1`; with more, whatever ran beside it too).
// Workers run files one at a time (isolate: false), so the deltas between a file's first and last hook are
// that file's. The run's other CPU (vitest's main process, global setup, the PostgreSQL server, the whole
// machine) global-setup.ts appends as lines whose name starts with `#`.
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import { processCpu, serverCpu } from './process-cpu.js';
import { counts } from './reused-databases.js';

const cpu = () => processCpu('self')!;
const server = () => {
  const pid = inject('pgServerPid');
  return pid ? (serverCpu(pid) ?? 0) : 0;
};

const log = process.env.DS_TEST_CPU_LOG;
if (log) {
  let start = { wall: 0, ...cpu(), ...counts, server: 0 };
  beforeAll((suite) => {
    // The PostgreSQL connections this file opens, its spawned CLIs' too, carry its name: a server log with
    // log_connections (DS_TEST_PG_SETTINGS) tells them apart by application_name.
    process.env.PGAPPNAME = relative('test', suite.file.filepath).replace(/\.test\.ts$/, '');
    start = { wall: performance.now(), ...cpu(), ...counts, server: server() };
  });
  afterAll((suite) => {
    const end = cpu();
    const row = [
      suite.file.filepath,
      ((performance.now() - start.wall) / 1000).toFixed(2),
      (end.own - start.own).toFixed(2),
      (end.children - start.children).toFixed(2),
      `databases ${counts.created - start.created}+${counts.reused - start.reused}`,
      `server ${(server() - start.server).toFixed(2)}`,
    ];
    appendFileSync(log, `${row.join('\t')}\n`);
  });
}
