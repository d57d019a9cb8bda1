// @end-to-end
// Nothing on the daemon's port or in its files ends it (the CLI, a child process, on both stores): job
// files it cannot run (a schedule that never fires, a bad cron, an unknown stream, a bad field) are each
// refused in one line naming the file and the field, by `jobs` and by the daemon, whose other job runs;
// /healthz probed without pause from the moment it starts always answers; SIGTERM stops it within its bound.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import type { DaemonHealth } from '../../src/mirror/index.js';
import { defaultJobs } from '../../src/scheduler/job-files.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { waitFor } from './scrape.js';
import { LAUNCHER_FLAGS } from '../helpers/launcher.js';
import { cliInProcess } from '../helpers/cli-in-process.js';

const STOP_TIMEOUT_S = 10;
const job = (name: string, fields: object) => ({
  name,
  description: name,
  schedule: '* * * * * *',
  streams: ['glossary'],
  mode: 'incremental',
  ...fields,
});
/** File → what its refusal must say after the file's name. */
const BAD: Record<string, [object, RegExp]> = {
  'feb30.json': [job('feb30', { schedule: '0 0 30 2 *' }), /feb30\.json: schedule "0 0 30 2 \*" never fires/],
  'badcron.json': [job('badcron', { schedule: '61 * * * *' }), /badcron\.json: schedule "61 \* \* \* \*" is not a cron expression/],
  'unknown.json': [job('unknown', { streams: ['glosary'] }), /unknown\.json: streams: job unknown: unknown stream "glosary"/],
  'badfield.json': [job('badfield', { mode: 'sometimes' }), /badfield\.json: mode: /],
};

let sandbox: Sandbox;
let dir: string;
let config: string;
beforeAll(async () => {
  sandbox = await startSandbox({ start: PINNED_START, scale: 0.2, seed: 6 });
  dir = mkdtempSync(join(tmpdir(), 'ds-mirror-inputs-'));
  const jobsDir = join(dir, 'jobs');
  mkdirSync(jobsDir);
  writeFileSync(join(jobsDir, 'good.json'), JSON.stringify(job('good', {})));
  for (const [file, [body]] of Object.entries(BAD)) writeFileSync(join(jobsDir, file), JSON.stringify(body));
  config = join(dir, 'config.json');
  const off = Object.fromEntries(defaultJobs.map((j) => [j.name, { enabled: false }]));
  writeFileSync(config, JSON.stringify({ timezone: 'UTC', jobsDir, jobs: off }));
});
afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function cli(t: TestStore, args: string[]) {
  const db = t.schema ? ['--db', t.url, '--db-schema', t.schema] : ['--db', t.url];
  return {
    argv: [...LAUNCHER_FLAGS, 'bin/ds-mirror.js', '--config', config, ...db, ...args],
    env: { ...process.env, DS_BASE_URL: sandbox.url, DS_API_KEY: sandbox.apiKey },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

for (const dialect of dialects) {
  describe(`the daemon's inputs (${dialect})`, () => {
    it('`jobs` names each bad file and its field, lists the good job and exits 2', async () => {
      const t = await openTestStore(dialect);
      try {
        // Through a process on SQLite; on PostgreSQL main() in this process (the same command and files,
        // the mirror it reads the only difference: the daemon below is spawned on both).
        const { argv, env } = cli(t, ['jobs']);
        const run =
          dialect === 'sqlite'
            ? spawnSync(process.execPath, argv, { env, encoding: 'utf8' })
            : await cliInProcess(argv.slice(argv.indexOf('bin/ds-mirror.js') + 1), env).then((r) => ({ ...r, status: r.code }));
        expect(run.status).toBe(2);
        for (const [, said] of Object.values(BAD)) expect(run.stderr).toMatch(said);
        expect(run.stdout).toMatch(/\bgood\b/);
      } finally {
        await t.cleanup();
      }
    }, 60_000);

    it('the daemon refuses the bad jobs, runs the good one, answers every probe from its start, and stops on SIGTERM', async () => {
      const t = await openTestStore(dialect);
      const port = await freePort();
      const { argv, env } = cli(t, ['daemon', '--metrics-port', String(port), '--no-receiver', '--stop-timeout', String(STOP_TIMEOUT_S)]);
      const child = spawn(process.execPath, argv, { env: { ...env, DS_LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let logs = '';
      child.stderr.on('data', (d) => (logs += String(d)));
      child.stdout.resume();
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      // Probes without pause from the spawn to the exit: none may end the process.
      const statuses = new Set<string>();
      let probing = true;
      const probes = (async () => {
        while (probing) {
          try {
            const res = await request(`http://127.0.0.1:${port}/healthz`);
            statuses.add(((await res.body.json()) as DaemonHealth).status);
          } catch {
            await new Promise((r) => setTimeout(r, 5)); // not listening yet, or closed
          }
        }
      })();
      try {
        const health = await waitFor('the good job run', async () => {
          if (child.exitCode !== null) throw new Error(`the daemon exited with ${child.exitCode}: ${logs}`);
          const res = await request(`http://127.0.0.1:${port}/healthz`).catch(() => null);
          const body = res ? ((await res.body.json()) as DaemonHealth) : null;
          return body?.jobs.find((j) => j.name === 'good')?.lastOutcome === 'success' ? body : undefined;
        });
        expect(health.status).toBe('degraded');
        expect(health.refused.map((r) => r.name).sort()).toEqual(['badcron', 'badfield.json', 'feb30', 'unknown']);
        for (const [, said] of Object.values(BAD)) {
          expect(health.reasons.some((r) => said.test(r))).toBe(true);
          expect(logs.replaceAll('\\"', '"')).toMatch(said); // the JSON log line's quotes unescaped
        }
        child.kill('SIGTERM');
        expect(await exited).toBe(0);
        expect(logs).toContain('daemon stopped');
      } finally {
        probing = false;
        await probes;
        if (child.exitCode === null) child.kill('SIGKILL');
        await t.cleanup();
      }
      expect([...statuses].filter((s) => !['starting', 'ok', 'degraded', 'stopping'].includes(s))).toEqual([]);
    }, 180_000);
  });
}
