// `npm run bench`: every benchmark, each in its own process (so peak RSS and event-loop time are its
// own), one after the other; the markdown they print is written to bench/RESULTS.md with the command,
// machine and date. Each compares against a baseline measured in the same run: ratios, not seconds,
// are what to read on a shared, noisy machine.
import { execFile } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { startPgCluster } from '../test/helpers/pg-cluster.js';

const run = promisify(execFile);

/** `--expose-gc` as the CLI's launcher gives it: a sync in the bench's own process collects as the CLI does. */
async function bench(title: string, script: string, args: string[] = []): Promise<string> {
  process.stderr.write(`bench: ${title}...\n`);
  const started = Date.now();
  try {
    const { stdout } = await run(
      process.execPath,
      ['--expose-gc', '--require', './scripts/ts-threads.cjs', '--import', 'tsx', script, ...args],
      {
        maxBuffer: 64 * 1024 * 1024,
        timeout: 20 * 60_000,
      },
    );
    process.stderr.write(`bench: ${title} done in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
    return `## ${title}\n\n\`npx tsx ${script} ${args.join(' ')}\`\n\n${stdout.trim()}\n`;
  } catch (error) {
    // A gate that failed still printed its table: kept, under the failure.
    const e = error as { stdout?: string; stderr?: string; message: string };
    const table = e.stdout?.trim() ? `\n\n${e.stdout.trim()}` : '';
    return `## ${title}\n\nFAILED: ${(e.stderr ?? e.message).trim().split('\n').slice(-5).join(' / ')}${table}\n`;
  }
}

const sections: string[] = [];
sections.push(await bench('Speed gate: a first sync against the recorded revision (bench/sync-gate.json)', 'bench/sync-gate.ts'));
sections.push(await bench('Mirror engine: /v1 sync on SQLite, scale 10', 'bench/sync.ts', ['--scale', '10']));
sections.push(
  await bench('Against the forty-line script a user would write, scale 10', 'bench/vs-script.ts', ['--scale', '10', '--runs', '3']),
);
sections.push(await bench('Mirror engine: /v1 sync on SQLite, scale 30 (peak RSS as scale grows)', 'bench/sync.ts', ['--scale', '30']));
sections.push(await bench('Peak memory of the CLI, scale 30 (SQLite)', 'bench/peak-memory.ts', ['--scale', '30']));
const cluster = await startPgCluster().catch((e: Error) => {
  sections.push(`## PostgreSQL\n\nnot measured: no PostgreSQL server could be started (${e.message})\n`);
  return null;
});
if (cluster) {
  try {
    sections.push(await bench('Mirror engine: /v1 sync on PostgreSQL, scale 10', 'bench/sync.ts', ['--scale', '10', '--db', cluster.url]));
    sections.push(
      await bench('Peak memory of the CLI, scale 30 (PostgreSQL)', 'bench/peak-memory.ts', ['--scale', '30', '--db', cluster.url]),
    );
    sections.push(
      await bench('History and analyst views on PostgreSQL: extra cost, scale 1', 'bench/history.ts', [
        '--scale',
        '1',
        '--db',
        cluster.url,
      ]),
    );
    sections.push(
      await bench(
        'Analyst queries in every reader (bundled SQLite, the OS SQLite through Python, PostgreSQL), scale 10 (budget 200 ms, 1 s)',
        'bench/analyst-queries.ts',
        ['--scale', '10', '--db', cluster.url],
      ),
    );
  } finally {
    await cluster.stop();
  }
}
sections.push(await bench('History and analyst views on SQLite: extra cost, scale 1', 'bench/history.ts', ['--scale', '1']));
sections.push(await bench('Monitoring streams, scale 10', 'bench/monitoring.ts', ['--scale', '10']));
sections.push(await bench('Request economy at real sizes: a first sync, a day and a month of the default schedule', 'bench/budget.ts'));
sections.push(await bench('A plain sync at real sizes: the second costs at most 5% of the first', 'bench/plain-sync.ts'));
sections.push(await bench('Several workers on one PostgreSQL database, scale 10', 'bench/workers.ts', ['--scale', '10']));
sections.push(await bench('Webhook receiver', 'bench/receiver.ts'));
sections.push(await bench('Store: upsertChanged against a raw baseline', 'bench/store-upsert.ts'));
sections.push(await bench('Sandbox: /v1/assets pages served per second, scale 10', 'bench/sandbox-throughput.ts'));
sections.push(await bench('Sandbox: start time at scale 1 and 50', 'bench/sandbox-startup.ts'));
sections.push(await bench('CLI start-up: --help and the receiver listening, against node -e 0', 'bench/cli-start.ts'));

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${process.platform}`;
const header =
  `# Benchmark results\n\nCommand: \`npm run bench\` · machine: ${machine} · date: ${new Date().toISOString()}\n\n` +
  'Each benchmark compares against a baseline measured in the same run; read the ratios (the machine is shared and noisy).\n' +
  'The current figures only: earlier runs and the experiments tried and not kept are in git (`git log -p bench/RESULTS.md`).\n';
const text = [header, ...sections].join('\n');
writeFileSync('bench/RESULTS.md', text);
process.stdout.write(text);
