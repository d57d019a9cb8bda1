// Opt-in (DS_TEST_CPU_LOG=<file>): one line per test file with its wall time and the CPU the worker spent on
// it, its own and its finished child processes' (spawned CLIs, sqlite3, psql), read from /proc/self/stat.
// The PostgreSQL server's CPU is not in it (read the postmaster's counters for that). Workers run files one
// at a time (isolate: false), so the deltas between a file's first and last hook are that file's.
import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';

const TICKS_PER_SECOND = 100;

/** utime, stime, cutime, cstime of this process, in seconds. */
function cpu(): { own: number; children: number } {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const at = (field: number) => Number(fields[field - 3]) / TICKS_PER_SECOND; // fields numbered from pid = 1
  return { own: at(14) + at(15), children: at(16) + at(17) };
}

const log = process.env.DS_TEST_CPU_LOG;
if (log) {
  let start = { wall: 0, ...cpu() };
  beforeAll(() => {
    start = { wall: performance.now(), ...cpu() };
  });
  afterAll((suite) => {
    const end = cpu();
    const row = [
      suite.file.filepath,
      ((performance.now() - start.wall) / 1000).toFixed(2),
      (end.own - start.own).toFixed(2),
      (end.children - start.children).toFixed(2),
    ];
    appendFileSync(log, `${row.join('\t')}\n`);
  });
}
