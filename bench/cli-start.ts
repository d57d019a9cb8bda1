// What a spawned `ds-mirror` costs, per command: CPU seconds per process (user + system, the kernel's count
// for the reaped child), the median of --runs, beside a bare `node -e 0`. With --base <checkout> (another
// built copy of ds-mirror, e.g. `git worktree add /tmp/base <rev> && cd /tmp/base && npm run build`), each
// command runs there too, interleaved with this checkout's run (the order alternating), and the ratio of the
// medians is read: load on a shared machine hits both alike. Against a sandbox in its own process (scale
// 0.1) and an existing SQLite mirror made first; with --pg <server url> also on PostgreSQL (a schema each).
// Each side's caches (dist/code-cache/) are made by the runs before the first measured one. Each side's
// CLI runs as `ds-mirror` does, with the flags of its launcher's first line (`#!/usr/bin/env -S node ...`).
// Run: npx tsx bench/cli-start.ts [--runs 9] [--base /tmp/base] [--pg postgres://...]   (after `npm run build`)
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { launcherFlags } from '../test/helpers/launcher.js';
import { startSandboxProcess } from './sandbox-process.js';

const { values: flags } = parseArgs({
  options: { runs: { type: 'string', default: '9' }, base: { type: 'string' }, pg: { type: 'string' } },
});
const runs = Math.max(1, Number(flags.runs) || 9);
const roots = [fileURLToPath(new URL('..', import.meta.url)), ...(flags.base ? [resolve(flags.base)] : [])];
for (const root of roots)
  if (!existsSync(join(root, 'dist/src/bundle'))) throw new Error(`no dist/ in ${root}: run \`npm run build\` there first`);

/** CPU seconds of this process's reaped children so far (Linux's /proc; USER_HZ is 100). */
function childrenCpu(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100; // cutime, cstime (fields 16, 17 from pid = 1)
}

/** CPU seconds of one process: until it exits, or until a stdout line matches `until` (then it is stopped). */
function cpuOf(args: string[], env: NodeJS.ProcessEnv, until?: RegExp, exit?: number): Promise<number> {
  return new Promise((done, fail) => {
    const before = childrenCpu();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (until?.test(out)) child.kill('SIGTERM');
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('error', fail);
    child.once('close', (code) => {
      if (until ? !until.test(out) : exit === undefined ? code !== 0 && code !== 2 : code !== exit)
        return fail(new Error(`${args.join(' ')}: exit ${code}: ${err.slice(0, 300)}`));
      done(childrenCpu() - before);
    });
  });
}

interface Case {
  name: string;
  args: (db: string[]) => string[];
  until?: RegExp;
  dialect?: 'sqlite' | 'postgres';
  /** Started as `node bin/ds-mirror.js`, without the launcher's flags. */
  bare?: boolean;
  /** Its environment over the bench's. */
  env?: NodeJS.ProcessEnv;
  /** The exit code it ends with (default 0, or 2 for a refused command line). */
  exit?: number;
}

const CASES: Case[] = [
  { name: '`--help`', args: () => ['--help'] },
  { name: '`--version`', args: () => ['--version'] },
  { name: 'a mistyped option (`--bogus`, exit 2)', args: () => ['--bogus'] },
  { name: '`streams`', args: () => ['streams'] },
  { name: 'an unknown stream (`sync nope`, exit 2)', args: (db) => [...db, 'sync', 'nope'] },
  { name: '`migrate`, up to date', args: (db) => [...db, 'migrate'] },
  { name: '`status`', args: (db) => [...db, 'status'] },
  { name: '`status --json`', args: (db) => [...db, 'status', '--json'] },
  { name: '`views`', args: (db) => [...db, 'views'] },
  { name: '`jobs`', args: (db) => [...db, 'jobs'] },
  { name: '`budget`', args: (db) => [...db, 'budget'] },
  { name: '`sync chains --plan`', args: (db) => [...db, 'sync', 'chains', '--plan'] },
  { name: '`sync chains` (one page, unchanged)', args: (db) => [...db, 'sync', 'chains', '--no-progress'] },
  {
    name: '`sync chains`, as `node bin/ds-mirror.js` (no launcher flags)',
    args: (db) => [...db, 'sync', 'chains', '--no-progress'],
    bare: true,
  },
  {
    name: 'a refused run (`sync chains` into a new file, nothing listens at the address, exit 1)',
    args: () => ['--db', `sqlite:${join(dir, 'never-made.db')}`, 'sync', 'chains', '--no-progress'],
    env: { DS_BASE_URL: 'http://127.0.0.1:9' },
    exit: 1,
  },
  { name: '`receive`, until listening', args: (db) => [...db, 'receive', '--port', '0'], until: /receiving webhooks at / },
  {
    name: '`daemon`, until started (no run at start)',
    args: (db) => [...db, 'daemon', '--metrics-port', '0', '--run-at-start', 'none'],
    until: /^ds-mirror daemon: /m,
  },
];

const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-cli-start-'));
const sandbox = await startSandboxProcess(0.1);
try {
  const env = { ...process.env, DS_BASE_URL: sandbox.url, DS_API_KEY: sandbox.apiKey, DS_WEBHOOK_SECRETS: 'bench', DS_LOG_LEVEL: 'error' };
  const dbs = roots.map((_, side) => {
    const sqlite = ['--db', `sqlite:${join(dir, `mirror-${side}.db`)}`];
    const pg = flags.pg ? ['--db', flags.pg, '--db-schema', `cli_start_${process.pid}_${side}`] : null;
    return { sqlite, postgres: pg };
  });
  const dialects = flags.pg ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);
  const cases = [
    { name: '`node -e 0`', run: () => cpuOf(['-e', '0'], env) },
    ...dialects.flatMap((dialect) =>
      CASES.filter((c) => dialect === 'sqlite' || c.args(['--db', 'x']).includes('--db')).map((c) => ({
        name: `${c.name}${dialect === 'postgres' ? ', PostgreSQL' : ''}`,
        sides: roots.map(
          (root, side) => () =>
            cpuOf(
              [...(c.bare ? [] : launcherFlags(root)), join(root, 'bin/ds-mirror.js'), ...c.args(dbs[side][dialect]!)],
              { ...env, ...c.env },
              c.until,
              c.exit,
            ),
        ),
      })),
    ),
  ];
  // The mirrors, and each command's code cache on each side (a first run makes it).
  for (const [side, root] of roots.entries())
    for (const dialect of dialects)
      await cpuOf([...launcherFlags(root), join(root, 'bin/ds-mirror.js'), ...dbs[side][dialect]!, 'sync', 'chains', '--no-progress'], env);
  const samples = cases.map((c) => ('sides' in c ? c.sides.map(() => [] as number[]) : [[] as number[]]));
  for (let i = -1; i < runs; i++) {
    for (const [k, c] of cases.entries()) {
      const order = 'sides' in c ? (i % 2 ? c.sides.map((_, s) => s) : c.sides.map((_, s) => s).reverse()) : [0];
      for (const s of order) {
        const cpu = await ('sides' in c ? c.sides[s]!() : c.run());
        if (i >= 0) samples[k]![s]!.push(cpu);
      }
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const head =
    roots.length > 1 ? '| command | this checkout, CPU s | base, CPU s | ratio |\n|---|---:|---:|---:|' : '| command | CPU s |\n|---|---:|';
  const rows = cases.map((c, k) => {
    const m = samples[k]!.map(median);
    return roots.length > 1 && m.length > 1
      ? `| ${c.name} | ${m[0]!.toFixed(2)} | ${m[1]!.toFixed(2)} | ${(m[0]! / m[1]!).toFixed(2)} |`
      : `| ${c.name} | ${m[0]!.toFixed(2)} |`;
  });
  process.stdout.write(
    [
      `### A spawned ds-mirror: CPU per process (median of ${runs}, interleaved)`,
      '',
      ...(roots.length > 1 ? [`base: ${roots[1]}`, ''] : []),
      head,
      ...rows,
      '',
    ].join('\n'),
  );
} finally {
  await sandbox.stop();
  rmSync(dir, { recursive: true, force: true });
}
