// Peak RSS of the CLI as a user runs it (the goal: under 200 MB at scale 30): a first sync into a fresh SQLite
// file (or a fresh schema of the PostgreSQL server given by --db), a no-op re-run, and exports of the largest
// view to CSV and Parquet, each a process of its own (maxRSS from bench/peak-rss.cjs), the sandbox in a
// process of its own (bench/sandbox-process.ts).
//   npx tsx bench/peak-memory.ts [--scale 30] [--db postgres://...] [--export v_assets]
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { startSandboxProcess } from './sandbox-process.js';

const run = promisify(execFile);
const { values } = parseArgs({
  options: { scale: { type: 'string', default: '30' }, export: { type: 'string', default: 'v_assets' }, db: { type: 'string' } },
});
const PEAK_RSS = new URL('./peak-rss.cjs', import.meta.url).pathname;

const sandbox = await startSandboxProcess(Number(values.scale));
const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-peak-memory-'));
const store = values.db
  ? { args: ['--db', values.db, '--db-schema', `peak_memory_${process.pid}`], name: 'PostgreSQL' }
  : { args: ['--db', `sqlite:${join(dir, 'mirror.db')}`], name: 'SQLite' };
const fast = { requestsPerMinute: 1e9, concurrency: 16 };
const config = join(dir, 'config.json');
writeFileSync(config, JSON.stringify({ limits: { v1: { ...fast, requestsPerMonth: null }, charts: fast, open: fast } }));

/** One CLI command in a process of its own: its wall seconds and peak RSS in MB. */
async function cli(args: string[]): Promise<string> {
  const started = performance.now();
  // `--expose-gc` as the launcher's first line gives it (a sync collects the pages it parsed).
  const child = await run(process.execPath, ['--expose-gc', 'bin/ds-mirror.js', ...args, ...store.args], {
    env: {
      ...process.env,
      DS_BASE_URL: sandbox.url,
      DS_API_KEY: sandbox.apiKey,
      DS_LOG_LEVEL: 'warn',
      NODE_OPTIONS: `--require ${PEAK_RSS}`,
    },
    maxBuffer: 64 * 2 ** 20,
  });
  const rss = /__maxrss=(\d+)/.exec(child.stderr)?.[1];
  if (!rss) throw new Error(`no peak RSS reported by ${args.join(' ')}: ${child.stderr.slice(-300)}`);
  return `| ${args.slice(0, 2).join(' ')} | ${((performance.now() - started) / 1000).toFixed(1)} | ${Math.round(Number(rss) / 1024)} |`;
}

try {
  const lines = [`scale ${values.scale}, ${store.name}`, '', '| command | wall s | peak RSS MB |', '|---|---|---|'];
  lines.push(await cli(['sync', 'v1', '--no-progress', '--config', config]));
  lines.push(await cli(['sync', 'v1', '--no-progress', '--config', config]));
  for (const ext of ['csv', 'parquet'])
    lines.push(await cli(['export', values.export!, '--no-progress', '--out', join(dir, `out.${ext}`)]));
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await sandbox.stop();
  rmSync(dir, { recursive: true, force: true });
}
