// A plain `sync` at the real service's sizes (the sandbox's real profile: 133,000 assets), through the built
// CLI as a user runs it: the first makes the complete assets pass, a second right after reads the top of
// each class and costs at most 5% of the first in /v1 requests (the mirror's usage ledger counts them), and
// `sync --plan` between them announces the figure README.md gives for "a sync after it". Exits 1 when either
// bar fails. The suite checks the same behaviour at a small size (test/cli/plain-sync.test.ts); the ratio
// and the README's figure only hold at real sizes, so they live here, run before each merge that touches
// the budget, the request planning, the default jobs or that README figure (docs/development.md).
// Run: npx tsx bench/plain-sync.ts   (after `npm run build`: it runs dist/ through bin/)
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startSandbox } from '../sandbox/index.js';
import { UsageLedger } from '../src/budget/usage-ledger.js';
import { MIRROR_SCHEMA } from '../src/mirror-schema/index.js';
import { openStore } from '../src/store/index.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
if (!existsSync(join(root, 'dist/src/bundle/main.js'))) throw new Error('no dist/: run `npm run build` first');
const MAX_SHARE = 0.05;
const fast = { requestsPerMinute: 1_000_000, concurrency: 8 };

const sandbox = await startSandbox({ profile: 'real', seed: 42, start: new Date('2025-06-01T12:00:00Z') });
const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-bench-plain-'));
const db = `sqlite:${join(dir, 'mirror.db')}`;
const config = join(dir, 'config.json');
// The ledger's own quota lifted: whatever day this runs on, the schedule's remainder never refuses these.
writeFileSync(
  config,
  JSON.stringify({ timezone: 'UTC', limits: { v1: { ...fast, requestsPerMonth: 100_000 }, charts: fast, open: fast } }),
);
const env = { ...process.env, DS_BASE_URL: sandbox.url, DS_API_KEY: sandbox.apiKey, DS_DB: db, DS_CONFIG: config, DS_LOG_LEVEL: 'warn' };

/** One command; its stdout, and the wall and CPU seconds of the process. */
async function cli(args: string[]): Promise<{ stdout: string; wall: number; cpu: number }> {
  const started = performance.now();
  const { stdout, stderr } = await run('/usr/bin/time', ['-f', '%U %S', process.execPath, 'bin/ds-mirror.js', ...args], {
    cwd: root,
    env,
    maxBuffer: 1e8,
  });
  const [user, sys] = stderr.trim().split('\n').at(-1)!.split(' ').map(Number);
  return { stdout, wall: (performance.now() - started) / 1000, cpu: user! + sys! };
}

/** /v1 requests counted in the mirror's usage ledger, every day together. */
async function v1Used(): Promise<number> {
  const store = await openStore({ migrations: MIRROR_SCHEMA, url: db });
  try {
    return (await new UsageLedger(store).history('2000-01-01')).filter((d) => d.family === 'v1').reduce((n, d) => n + d.requests, 0);
  } finally {
    await store.close();
  }
}

const failures: string[] = [];
try {
  const first = await cli(['sync', 'v1', '--no-progress']);
  const firstCost = await v1Used();
  const plan = await cli(['sync', 'v1', '--plan']);
  const planned = Number(/^\/v1 \(and charts\): (\d+) requests/m.exec(plan.stdout)?.[1]);
  const second = await cli(['sync', 'v1', '--no-progress']);
  const secondCost = (await v1Used()) - firstCost;
  const share = secondCost / firstCost;
  const readme = /so it costs about (\d+) `\/v1` requests/.exec(readFileSync(join(root, 'README.md'), 'utf8').replace(/\s+/g, ' '))?.[1];

  if (!/^assets-top\s/m.test(second.stdout)) failures.push('the second sync did not read the assets as assets-top');
  if (!(share <= MAX_SHARE)) failures.push(`the second sync cost ${(share * 100).toFixed(1)}% of the first (at most ${MAX_SHARE * 100}%)`);
  if (String(planned) !== readme) failures.push(`README.md says a sync after the first costs about ${readme}; --plan says ${planned}`);

  const assets = sandbox.records('assets').length.toLocaleString('en-US');
  console.log(`Sandbox \`--profile real\` (${assets} assets), SQLite, \`ds-mirror sync v1\` twice, \`--plan\` between.\n`);
  console.log('| run | /v1 requests (usage ledger) | wall s | CPU s (user + sys) |');
  console.log('|---|---:|---:|---:|');
  console.log(`| first sync (the complete pass) | ${firstCost} | ${first.wall.toFixed(1)} | ${first.cpu.toFixed(1)} |`);
  console.log(`| \`--plan\` after it | announces ${planned} | ${plan.wall.toFixed(1)} | ${plan.cpu.toFixed(1)} |`);
  console.log(`| second sync (the top of each class) | ${secondCost} | ${second.wall.toFixed(1)} | ${second.cpu.toFixed(1)} |`);
  console.log(
    `\nThe second costs ${(share * 100).toFixed(1)}% of the first (bar: at most ${MAX_SHARE * 100}%); README.md's figure: ${readme}.`,
  );
  console.log(failures.length ? `\n**FAILED**: ${failures.join('; ')}.` : '\nBoth bars hold.');
} finally {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
}
if (failures.length) process.exitCode = 1;
