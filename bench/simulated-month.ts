// The default schedule's /v1 jobs over the whole of July: test/budget/simulated-month.test.ts with every one
// of its 98 fires walked (DS_TEST_FULL_MONTH=1, SQLite), where the suite walks the kinds of fire the month
// holds (9) and multiplies each job's runs by its July fires. What only the whole walk shows is the month's
// real spend, as the service counted it, against the projection and the quota, with nothing refused: that
// mid-month runs cost what the month's first and last did. Run before each merge that touches `src/budget/`,
// `src/requests/` or the default jobs (docs/development.md). Exits 1 when the test fails.
// Run: npx tsx bench/simulated-month.ts   (about 10 CPU-seconds)
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const FILE = 'test/budget/simulated-month.test.ts';
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-bench-month-'));
const cpuLog = join(dir, 'cpu.tsv');
const month = join(dir, 'month.json');
const started = performance.now();
let failed = false;
try {
  await run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', FILE], {
    env: { ...process.env, DS_TEST_FULL_MONTH: '1', DS_TEST_MONTH_REPORT: month, DS_TEST_CPU_LOG: cpuLog },
    maxBuffer: 64 * 1024 * 1024,
  });
} catch (error) {
  failed = true;
  process.stderr.write(String((error as { stdout?: string }).stdout ?? error));
}
const wall = (performance.now() - started) / 1000;
const fileLine = readFileSync(cpuLog, 'utf8')
  .split('\n')
  .find((line) => line.split('\t')[0]!.endsWith(FILE));
const [, fileWall, own] = (fileLine ?? '-\t-\t-').split('\t');
const figures = existsSync(month)
  ? (JSON.parse(readFileSync(month, 'utf8')) as {
      walked: number;
      used: number;
      projected: number;
      quota: number;
      spent: [string, number[]][];
    })
  : null;
rmSync(dir, { recursive: true, force: true });

const lines = [
  'July 2025 on the sandbox (scale 0.1, top 20 assets a class), SQLite: every fire of the /v1 jobs.',
  '',
  '| fires walked | /v1 requests in July (service) | projected | ratio | quota (1.27 x projected) | file wall s | worker CPU s | run wall s |',
  '|---:|---:|---:|---:|---:|---:|---:|---:|',
  figures
    ? `| ${figures.walked} | ${figures.used} | ${figures.projected} | ${(figures.used / figures.projected).toFixed(3)} | ${figures.quota} | ${Number(fileWall).toFixed(0)} | ${own} | ${wall.toFixed(0)} |`
    : `| - | - | - | - | - | ${fileWall} | ${own} | ${wall.toFixed(0)} |`,
  '',
];
if (figures) {
  const perJob = figures.spent.map(([job, runs]) => `${job} ${runs.length} runs, ${[...new Set(runs)].join('/')} requests each`);
  lines.push(`Runs: ${perJob.join('; ')}.`, '');
}
lines.push(
  failed ? 'The bar does not hold.' : 'The bar holds (nothing refused, the month within 0.5-1.1 of the projection and under the quota).',
);
process.stdout.write(`${lines.join('\n')}\n`);
if (failed) process.exitCode = 1;
