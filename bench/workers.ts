// Several workers on one PostgreSQL database at scale 10 (55,000 rows): test/sync/workers.test.ts, which the
// suite runs at scale 2 (11,000 rows), run again at the size issue 31 set its bar at. The leases, the
// store's write path and the shared pace are the same code at either size; what only the larger size
// shows is many pages of many streams written by two workers at once (longer transactions overlapping,
// a lease renewed while a large page commits). Run before each merge that touches the stream leases or
// the store's write path (docs/development.md). Exits 1 when a test fails; prints the file's wall and CPU.
// Run: npx tsx bench/workers.ts [--scale 10]   (after `npm run build`: one of its tests spawns two CLIs)
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const at = process.argv.indexOf('--scale');
const scale = at > 0 ? Number(process.argv[at + 1]) : 10;
if (!(scale > 0)) throw new Error('--scale takes a positive number');

const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-bench-workers-'));
const cpuLog = join(dir, 'cpu.tsv');
const report = join(dir, 'report.json');
const started = performance.now();
let failed = false;
try {
  await run(
    process.execPath,
    ['node_modules/vitest/vitest.mjs', 'run', 'test/sync/workers.test.ts', '--reporter=json', `--outputFile=${report}`],
    { env: { ...process.env, DS_TEST_WORKERS_SCALE: String(scale), DS_TEST_CPU_LOG: cpuLog }, maxBuffer: 64 * 1024 * 1024 },
  );
} catch {
  failed = true; // the report says which
}
const wall = (performance.now() - started) / 1000;
const results = JSON.parse(readFileSync(report, 'utf8')) as {
  numPassedTests: number;
  numFailedTests: number;
  testResults: { assertionResults: { fullName: string; status: string }[] }[];
};
// The file's own line: the log also holds the run's `#` lines (vitest's main process, the server, the machine).
const fileLine = readFileSync(cpuLog, 'utf8')
  .split('\n')
  .find((line) => line.split('\t')[0]!.endsWith('test/sync/workers.test.ts'));
const [, fileWall, own, children] = (fileLine ?? '-\t-\t-\t-').split('\t');
rmSync(dir, { recursive: true, force: true });

const lines = [
  `Scale ${scale} (the suite: 2), PostgreSQL (a throwaway cluster with the suite's settings), the test file's own tests.`,
  '',
  '| tests passed | failed | file wall s | worker CPU s | CLI children CPU s | run wall s (with the cluster) |',
  '|---:|---:|---:|---:|---:|---:|',
  `| ${results.numPassedTests} | ${results.numFailedTests} | ${Number(fileWall).toFixed(0)} | ${own} | ${children} | ${wall.toFixed(0)} |`,
  '',
];
for (const t of results.testResults.flatMap((r) => r.assertionResults).filter((a) => a.status !== 'passed'))
  lines.push(`- ${t.status}: ${t.fullName}`);
lines.push(failed || results.numFailedTests > 0 ? 'The bar does not hold.' : 'The bar holds.');
process.stdout.write(`${lines.join('\n')}\n`);
if (failed || results.numFailedTests > 0) process.exitCode = 1;
