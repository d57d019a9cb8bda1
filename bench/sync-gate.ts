// The speed gate, run before each merge that touches sync, store or client: a first `sync v1` into a
// new SQLite file, as a user runs it (the built CLI with its launcher's node flags, `#!/usr/bin/env -S node
// ...` on bin/ds-mirror.js's first line, each checkout its own; start-up included, pace lifted), in this checkout
// and in a checkout of the revision recorded in bench/sync-gate.json, alternately on one sandbox. It
// fails (exit 1) when this checkout's CPU time (user + system, every thread) is more than the recorded
// ratio of the old one's: the median of the pairs' ratios, so the load of a shared machine hits both
// sides of each pair alike. CPU rather than wall time: wall time on a busy machine is mostly waiting.
//   npx tsx bench/sync-gate.ts [--base <checkout of the revision>] [--runs 5] [--write] [--no-build]
// Without --base, the old revision is checked out once under the system's temporary folder (git
// worktree; its node_modules hard-linked from this one when the lock files match, else `npm ci`) and
// reused. --write puts the table in bench/RESULTS.md's "Speed gate" section.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { startSandboxProcess } from './sandbox-process.js';
import { launcherFlags } from '../test/helpers/launcher.js';

const run = promisify(execFile);
const here = process.cwd();
const gate = JSON.parse(readFileSync(join(here, 'bench/sync-gate.json'), 'utf8')) as {
  revision: string;
  maxCpuRatio: number;
  scale: number;
  runs: number;
};
const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    runs: { type: 'string', default: String(gate.runs) },
    write: { type: 'boolean', default: false },
    build: { type: 'boolean', default: true },
  },
  allowNegative: true,
});

const sh = async (cwd: string, cmd: string, args: string[]) =>
  (await run(cmd, args, { cwd, maxBuffer: 64 * 2 ** 20, timeout: 30 * 60_000 })).stdout.trim();

/** A checkout of the recorded revision, built: the one given, or one made (and kept) under the temporary folder. */
async function baseCheckout(): Promise<string> {
  const want = await sh(here, 'git', ['rev-parse', `${gate.revision}^{commit}`]);
  const dir = values.base ? resolve(values.base) : join(tmpdir(), `ds-mirror-gate-${want.slice(0, 12)}`);
  if (!existsSync(dir)) await sh(here, 'git', ['worktree', 'add', '--detach', dir, want]);
  const head = await sh(dir, 'git', ['rev-parse', 'HEAD']);
  if (head !== want) throw new Error(`${dir} is at ${head.slice(0, 12)}, not the recorded ${gate.revision}`);
  if (!existsSync(join(dir, 'node_modules'))) {
    const sameLock = readFileSync(join(dir, 'package-lock.json'), 'utf8') === readFileSync(join(here, 'package-lock.json'), 'utf8');
    if (sameLock) await sh(dir, 'cp', ['-al', join(here, 'node_modules'), join(dir, 'node_modules')]);
    else await sh(dir, 'npm', ['ci', '--no-audit', '--no-fund']);
  }
  if (!existsSync(join(dir, 'dist/src/bundle/main.js'))) await sh(dir, 'npm', ['run', 'build']);
  return dir;
}

interface Sample {
  wall: number;
  cpu: number;
  rssMb: number;
  requests: number;
}

const PEAK_RSS = join(here, 'bench/peak-rss.cjs');

/** One first sync into a new file by the CLI of `checkout`. */
async function firstSync(checkout: string, db: string, config: string, service: { url: string; apiKey: string }): Promise<Sample> {
  const started = performance.now();
  const { stdout, stderr } = await run(
    process.execPath,
    [...launcherFlags(checkout), 'bin/ds-mirror.js', 'sync', 'v1', '--no-progress', '--db', `sqlite:${db}`, '--config', config],
    {
      cwd: checkout,
      env: {
        ...process.env,
        DS_BASE_URL: service.url,
        DS_API_KEY: service.apiKey,
        DS_LOG_LEVEL: 'warn',
        NODE_OPTIONS: `--require ${PEAK_RSS}`,
      },
      maxBuffer: 64 * 2 ** 20,
    },
  );
  const wall = (performance.now() - started) / 1000;
  const cpu = Number(/__cpu=(\d+)/.exec(stderr)?.[1]) / 1e6;
  const rssMb = Math.round(Number(/__maxrss=(\d+)/.exec(stderr)?.[1]) / 1024);
  const requests = Number(/([\d,]+) requests( sent)?,? /.exec(stdout)?.[1]?.replace(/,/g, ''));
  if (!Number.isFinite(cpu) || !Number.isFinite(requests))
    throw new Error(`${checkout}: no CPU time or request count in\n${stdout}\n${stderr}`);
  return { wall, cpu, rssMb, requests };
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function report(old: Sample[], now: Sample[], runs: number, head: string): { text: string; passed: boolean } {
  const ratio = median(now.map((n, i) => n.cpu / old[i]!.cpu));
  const passed = ratio <= gate.maxCpuRatio;
  const row = (label: string, s: Sample[]) =>
    `| ${label} | ${median(s.map((x) => x.cpu)).toFixed(2)} | ${median(s.map((x) => x.wall)).toFixed(2)} | ${median(s.map((x) => x.requests))} | ${median(s.map((x) => x.rssMb))} |`;
  const text = [
    `\`npx tsx bench/sync-gate.ts\` · ${runs} interleaved pairs, medians · scale ${gate.scale} · ${new Date().toISOString().slice(0, 16)}Z · load average ${loadAverage()}`,
    '',
    '| first `sync v1` into a new SQLite file | CPU s | wall s | requests | peak RSS MB |',
    '|---|---:|---:|---:|---:|',
    row(`${gate.revision} (recorded)`, old),
    row(`${head} (this checkout)`, now),
    '',
    `${passed ? 'PASS' : 'FAIL'}: CPU ${ratio.toFixed(2)}× ${gate.revision}'s (median of the pairs' ratios; limit ${gate.maxCpuRatio}×, bench/sync-gate.json).`,
  ].join('\n');
  return { text, passed };
}

function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ')[0] ?? '?';
}

/** Replaces the gate's last table and verdict in bench/RESULTS.md's "Speed gate" section with `text`. */
function writeResults(text: string): void {
  const path = join(here, 'bench/RESULTS.md');
  const md = readFileSync(path, 'utf8');
  const start = md.indexOf('`npx tsx bench/sync-gate.ts`', md.indexOf('\n## Speed gate'));
  const verdict = /\n(PASS|FAIL): [^\n]*\n/g;
  verdict.lastIndex = start;
  const end = start < 0 ? null : verdict.exec(md);
  if (!end) throw new Error('bench/RESULTS.md has no "Speed gate" table to replace');
  writeFileSync(path, `${md.slice(0, start)}${text}\n${md.slice(end.index + end[0].length)}`);
}

const base = await baseCheckout();
if (values.build) await sh(here, 'npm', ['run', 'build']);
const head = await sh(here, 'git', ['rev-parse', '--short', 'HEAD']);
const dirty = (await sh(here, 'git', ['status', '--porcelain', '--untracked-files=no'])) ? '+edits' : '';
const sandbox = await startSandboxProcess(gate.scale);
const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-gate-run-'));
try {
  const fast = { requestsPerMinute: 1e9, concurrency: 16 };
  const config = join(dir, 'config.json');
  writeFileSync(config, JSON.stringify({ limits: { v1: { ...fast, requestsPerMonth: null }, charts: fast, open: fast } }));
  const samples = { old: [] as Sample[], now: [] as Sample[] };
  const runs = Number(values.runs);
  for (let i = 0; i < runs; i++) {
    // Alternate which side goes first, so neither always follows the other's page cache and heat.
    for (const side of i % 2 === 0 ? (['old', 'now'] as const) : (['now', 'old'] as const)) {
      const s = await firstSync(side === 'old' ? base : here, join(dir, `${side}-${i}.db`), config, sandbox);
      samples[side].push(s);
      process.stderr.write(`pair ${i + 1}, ${side}: ${s.cpu.toFixed(2)} s CPU, ${s.wall.toFixed(2)} s, ${s.requests} requests\n`);
      for (const suffix of ['', '-wal', '-shm']) rmSync(join(dir, `${side}-${i}.db${suffix}`), { force: true });
    }
  }
  const { text, passed } = report(samples.old, samples.now, runs, `${head}${dirty}`);
  process.stdout.write(`${text}\n`);
  if (values.write) writeResults(text);
  process.exitCode = passed ? 0 : 1;
} finally {
  await sandbox.stop();
  rmSync(dir, { recursive: true, force: true });
}
