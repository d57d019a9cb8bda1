// @end-to-end
// Only regular job files are read, through the commands a user runs (`ds-mirror jobs` and `ds-mirror
// daemon`, spawned, on both stores): a FIFO, a socket or a device named `*.json` in the jobs folder is
// refused by name without blocking (a FIFO read would wait for a writer for ever), so is a file past the
// size limit, and two files naming one job are refused together, both named in one line; the good job runs.
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
import { waitFor } from '../scheduler/scrape.js';
import { LAUNCHER_FLAGS } from '../helpers/launcher.js';

const job = (name: string, fields: object = {}) => ({
  name,
  description: name,
  schedule: '* * * * * *',
  streams: ['glossary'],
  mode: 'incremental',
  ...fields,
});

/** What each refusal says, after the file's path. */
const REFUSED: Record<string, RegExp> = {
  fifo: /fifo\.json: not a regular file \(a FIFO\)/,
  socket: /socket\.json: not a regular file \(a socket\)/,
  device: /zero\.json: not a regular file \(a device\)/,
  folder: /folder\.json: not a regular file \(a folder\)/,
  large: /large\.json: \d+ bytes, more than a job file's 65536/,
  twice: /one\.json and .*two\.json both name the job "twice": neither runs/,
};

let sandbox: Sandbox;
let dir: string;
let config: string;
let socket: Server;
beforeAll(async () => {
  sandbox = await startSandbox({ start: PINNED_START, scale: 0.2, seed: 8 });
  dir = mkdtempSync(join(tmpdir(), 'ds-mirror-job-kinds-'));
  const jobsDir = join(dir, 'jobs');
  mkdirSync(jobsDir);
  writeFileSync(join(jobsDir, 'good.json'), JSON.stringify(job('good')));
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

for (const dialect of dialects) {
  describe(`job files that are not files (${dialect})`, () => {
    // One mirror for both: `jobs` writes nothing the daemon then reads.
    let t: TestStore;
    beforeAll(async () => {
      t = await openTestStore(dialect);
    });
    afterAll(() => t?.cleanup());

    it('`jobs` refuses each by name, one line each, lists the good job and exits 2 without blocking', async () => {
      const { args, env } = cli(t);
      const run = spawnSync(process.execPath, [...LAUNCHER_FLAGS, 'bin/ds-mirror.js', ...args, 'jobs'], {
        env,
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect([run.status, run.signal]).toEqual([2, null]);
      const lines = run.stderr.trim().split('\n');
      expect(lines).toHaveLength(Object.keys(REFUSED).length);
      for (const said of Object.values(REFUSED))
        expect(
          lines.filter((l) => said.test(l)),
          `${said}: ${run.stderr}`,
        ).toHaveLength(1);
      expect(run.stdout).toMatch(/\bgood\b/);
      expect(run.stdout).not.toMatch(/\btwice\b/);
    });

    it('the daemon refuses them in /healthz and its log, runs the good job, and stops on SIGTERM', async () => {
      const { args, env } = cli(t);
      const daemon = await spawnDaemon(args, env, { stopTimeoutS: 10, daemonArgs: ['--no-receiver', '--run-at-start', 'none'] });
      try {
        const health = await waitFor('the good job run', async () => {
          if (daemon.child.exitCode !== null) throw new Error(`the daemon exited with ${daemon.child.exitCode}: ${daemon.logs()}`);
          const body = (await daemon.probe())?.body;
          return body?.jobs.find((j) => j.name === 'good')?.lastOutcome === 'success' ? body : undefined;
        });
        expect(health.status).toBe('degraded');
        expect(health.jobs.map((j) => j.name)).not.toContain('twice');
        for (const said of Object.values(REFUSED)) {
          expect(health.reasons.filter((r) => said.test(r))).toHaveLength(1);
          expect(daemon.logs().replaceAll('\\"', '"')).toMatch(said);
        }
        daemon.child.kill('SIGTERM');
        expect((await daemon.exited).code).toBe(0);
      } finally {
        daemon.kill();
      }
    });
  });
}
