// @end-to-end
// Nothing on the daemon's port or in its jobs folder ends it (the CLI, a child process, on both stores):
// job files it cannot run are each refused in one line naming the file, by `jobs` (exit 2, at once) and by
// the daemon, whose good job runs: a schedule that never fires, a bad cron, an unknown stream, a bad field;
// a FIFO, a socket, a device or a folder named `*.json` (a FIFO read would wait for a writer for ever), a
// file past the size limit, and two files naming one job (refused together, both named in one line).
// /healthz probed without pause from the moment the daemon starts always answers; SIGTERM stops it.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { defaultJobs } from '../../src/scheduler/job-files.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { spawnDaemon } from '../helpers/spawned-daemon.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { waitFor } from './scrape.js';
import { LAUNCHER_FLAGS } from '../helpers/launcher.js';
import { cliInProcess } from '../helpers/cli-in-process.js';

const job = (name: string, fields: object = {}) => ({
  name,
  description: name,
  schedule: '* * * * * *',
  streams: ['glossary'],
  mode: 'incremental',
  ...fields,
});
/** File → what its refusal must say after the file's name: a job the daemon cannot run. */
const BAD: Record<string, [object, RegExp]> = {
  'feb30.json': [job('feb30', { schedule: '0 0 30 2 *' }), /feb30\.json: schedule "0 0 30 2 \*" never fires/],
  'badcron.json': [job('badcron', { schedule: '61 * * * *' }), /badcron\.json: schedule "61 \* \* \* \*" is not a cron expression/],
  'unknown.json': [job('unknown', { streams: ['glosary'] }), /unknown\.json: streams: job unknown: unknown stream "glosary"/],
  'badfield.json': [job('badfield', { mode: 'sometimes' }), /badfield\.json: mode: /],
};
/** What each refusal of a file that is no job file says, after the file's path. */
const NOT_FILES: RegExp[] = [
  /fifo\.json: not a regular file \(a FIFO\)/,
  /socket\.json: not a regular file \(a socket\)/,
  /zero\.json: not a regular file \(a device\)/,
  /folder\.json: not a regular file \(a folder\)/,
  /large\.json: \d+ bytes, more than a job file's 65536/,
  /one\.json and .*two\.json both name the job "twice": neither runs/,
];
const REFUSALS = [...Object.values(BAD).map(([, said]) => said), ...NOT_FILES];

let sandbox: Sandbox;
let dir: string;
let config: string;
let socket: Server;
beforeAll(async () => {
  // Scale 0.1: the good job's glossary is a page either way.
  sandbox = await startSandbox({ start: PINNED_START, scale: 0.1, seed: 6 });
  dir = mkdtempSync(join(tmpdir(), 'ds-mirror-inputs-'));
  const jobsDir = join(dir, 'jobs');
  mkdirSync(jobsDir);
  writeFileSync(join(jobsDir, 'good.json'), JSON.stringify(job('good', {})));
  for (const [file, [body]] of Object.entries(BAD)) writeFileSync(join(jobsDir, file), JSON.stringify(body));
  writeFileSync(join(jobsDir, 'one.json'), JSON.stringify(job('twice')));
  writeFileSync(join(jobsDir, 'two.json'), JSON.stringify(job('twice', { schedule: '0 * * * *' })));
  writeFileSync(join(jobsDir, 'large.json'), JSON.stringify(job('large', { description: 'x'.repeat(70_000) })));
  mkdirSync(join(jobsDir, 'folder.json'));
  symlinkSync('/dev/zero', join(jobsDir, 'zero.json'));
  expect(spawnSync('mkfifo', [join(jobsDir, 'fifo.json')]).status).toBe(0);
  socket = createServer();
  await new Promise<void>((resolve) => socket.listen(join(jobsDir, 'socket.json'), resolve));
  config = join(dir, 'config.json');
  const off = Object.fromEntries(defaultJobs.map((j) => [j.name, { enabled: false }]));
  writeFileSync(config, JSON.stringify({ timezone: 'UTC', jobsDir, jobs: off }));
});
afterAll(async () => {
  await new Promise((resolve) => socket?.close(resolve));
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function cli(t: TestStore) {
  const db = t.schema ? ['--db', t.url, '--db-schema', t.schema] : ['--db', t.url];
  return {
    args: ['--config', config, ...db],
    env: { ...process.env, DS_BASE_URL: sandbox.url, DS_API_KEY: sandbox.apiKey, DS_LOG_LEVEL: 'info' },
  };
}

/** Each refusal once among `lines` (one line each, no other). */
function refusedOnce(lines: readonly string[], text: string): void {
  for (const said of REFUSALS)
    expect(
      lines.filter((l) => said.test(l)),
      `${said}: ${text}`,
    ).toHaveLength(1);
}

for (const dialect of dialects) {
  describe(`the daemon's inputs (${dialect})`, () => {
    // One mirror for both: `jobs` writes nothing the daemon then reads.
    let t: TestStore;
    beforeAll(async () => {
      t = await openTestStore(dialect);
    });
    afterAll(() => t?.cleanup());

    it('`jobs` names each refused file in a line of its own, lists the good job and exits 2 without blocking', async () => {
      // Through a process on SQLite; on PostgreSQL main() in this process (the same command and files,
      // the mirror it reads the only difference: the daemon below is spawned on both).
      const { args, env } = cli(t);
      const run =
        dialect === 'sqlite'
          ? spawnSync(process.execPath, [...LAUNCHER_FLAGS, 'bin/ds-mirror.js', ...args, 'jobs'], {
              env,
              encoding: 'utf8',
              timeout: 60_000,
            })
          : await cliInProcess([...args, 'jobs'], env).then((r) => ({ ...r, status: r.code, signal: null }));
      expect([run.status, run.signal]).toEqual([2, null]);
      const lines = run.stderr.trim().split('\n');
      expect(lines).toHaveLength(REFUSALS.length);
      refusedOnce(lines, run.stderr);
      expect(run.stdout).toMatch(/\bgood\b/);
      expect(run.stdout).not.toMatch(/\btwice\b/);
    }, 60_000);

    it('the daemon refuses them, runs the good job, answers every probe from its start, and stops on SIGTERM', async () => {
      const { args, env } = cli(t);
      const daemon = await spawnDaemon(args, env, { stopTimeoutS: 10, daemonArgs: ['--no-receiver'] });
      // Probes without pause from the spawn to the exit: none may end the process.
      const statuses = new Set<string>();
      let probing = true;
      const probes = (async () => {
        while (probing) {
          const answer = await daemon.probe();
          if (answer) statuses.add(answer.body.status);
          else await new Promise((r) => setTimeout(r, 5)); // not listening yet, or closed
        }
      })();
      try {
        const health = await waitFor('the good job run', async () => {
          if (daemon.child.exitCode !== null) throw new Error(`the daemon exited with ${daemon.child.exitCode}: ${daemon.logs()}`);
          const body = (await daemon.probe())?.body;
          return body?.jobs.find((j) => j.name === 'good')?.lastOutcome === 'success' ? body : undefined;
        });
        expect(health.status).toBe('degraded');
        expect(health.jobs.map((j) => j.name)).not.toContain('twice');
        // A job by its name, a file that is no job file (or two naming one job) by the file's or the job's.
        expect(health.refused.map((r) => r.name).sort()).toEqual([
          'badcron',
          'badfield.json',
          'feb30',
          'fifo.json',
          'folder.json',
          'large.json',
          'socket.json',
          'twice',
          'unknown',
          'zero.json',
        ]);
        refusedOnce(health.reasons, JSON.stringify(health.reasons));
        const logs = daemon.logs().replaceAll('\\"', '"'); // the JSON log lines' quotes unescaped
        for (const said of REFUSALS) expect(logs).toMatch(said);
        daemon.child.kill('SIGTERM');
        expect((await daemon.exited).code).toBe(0);
        expect(daemon.logs()).toContain('daemon stopped');
      } finally {
        probing = false;
        await probes;
        daemon.kill();
      }
      expect([...statuses].filter((s) => !['starting', 'ok', 'degraded', 'stopping'].includes(s))).toEqual([]);
    }, 180_000);
  });
}
