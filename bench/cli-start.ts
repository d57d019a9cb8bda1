// Start-up of the shipped CLI against a bare `node -e 0`: `ds-mirror --help`, and `ds-mirror receive`
// until it prints its URL (listening), on an existing mirror and on a new one (migrations applied).
// Runs alternate between the commands so load on a shared machine hits them alike; medians are read,
// as ratios to node's own start and as milliseconds (targets: --help under 300 ms, listening under 1 s).
// Run: npx tsx bench/cli-start.ts [--runs 15]   (after `npm run build`: it runs dist/ through bin/)
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const argRuns = Number(process.argv[process.argv.indexOf('--runs') + 1]);
const runs = process.argv.includes('--runs') && argRuns > 0 ? argRuns : 15;
const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin/ds-mirror.js');
if (!existsSync(join(root, 'dist/src/bundle/main.js'))) throw new Error('no dist/: run `npm run build` first');
const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-start-'));
const env = { ...process.env, DS_WEBHOOK_SECRETS: 'bench-secret', DS_LOG_LEVEL: 'warn' };

/** Milliseconds from spawn until the process exits, or until a stdout line matches `until` (then it is killed). */
function timeOf(args: string[], until?: RegExp): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    let at: number | null = null;
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (until && at === null && until.test(out)) {
        at = performance.now() - started;
        child.kill('SIGTERM');
      }
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (until) return at === null ? reject(new Error(`${args.join(' ')} exited (${code}) before printing ${until}`)) : resolve(at);
      return code === 0 ? resolve(performance.now() - started) : reject(new Error(`${args.join(' ')} exited with ${code}`));
    });
  });
}

const LISTENING = /receiving webhooks at /;
const existing = `sqlite:${join(dir, 'existing.db')}`;
const cases: { name: string; run: (i: number) => Promise<number> }[] = [
  { name: '`node -e 0` (baseline)', run: () => timeOf(['-e', '0']) },
  { name: '`ds-mirror --help`', run: () => timeOf([bin, '--help']) },
  { name: '`ds-mirror --version`', run: () => timeOf([bin, '--version']) },
  {
    name: '`ds-mirror receive`: listening, existing mirror',
    run: () => timeOf([bin, '--db', existing, 'receive', '--port', '0'], LISTENING),
  },
  {
    name: '`ds-mirror receive`: listening, new mirror (migrations)',
    run: (i) => timeOf([bin, '--db', `sqlite:${join(dir, `new-${i}.db`)}`, 'receive', '--port', '0'], LISTENING),
  },
];

try {
  await timeOf([bin, '--db', existing, 'migrate']);
  const samples = cases.map(() => [] as number[]);
  for (let i = 0; i < runs; i++) {
    for (const [c, k] of cases.entries()) samples[c].push(await k.run(i));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const base = median(samples[0]);
  const rows = cases.map((c, i) => {
    const sorted = [...samples[i]].sort((a, b) => a - b);
    const m = median(samples[i]);
    return `| ${c.name} | ${m.toFixed(0)} | ${sorted[0].toFixed(0)} | ${sorted[sorted.length - 1].toFixed(0)} | ${(m / base).toFixed(2)} | ${(m - base).toFixed(0)} |`;
  });
  process.stdout.write(
    [
      `### CLI start-up (${runs} runs each, alternating)`,
      '',
      '| command | median ms | min ms | max ms | ratio to node -e 0 | ms above node -e 0 |',
      '|---|---|---|---|---|---|',
      ...rows,
      '',
      `Targets: --help under 300 ms, receiver listening under 1000 ms. Medians here: --help ${median(samples[1]).toFixed(0)} ms, ` +
        `receiver ${median(samples[3]).toFixed(0)} ms (new mirror ${median(samples[4]).toFixed(0)} ms); node itself ${base.toFixed(0)} ms.`,
      '',
    ].join('\n'),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
