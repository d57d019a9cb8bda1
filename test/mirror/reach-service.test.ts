// @end-to-end
// A service that cannot be reached is said once per API family, before any stream starts: a closed port,
// https on an http port, a host name that does not resolve, a port that never answers.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { whyUnreachable } from '../../src/mirror/reach-service.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { LAUNCHER_FLAGS } from '../helpers/launcher.js';

const run = promisify(execFile);
let sandbox: Sandbox;
let silent: Server;
let silentPort: number;
let closedPort: number;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ start: PINNED_START, scale: 0.05 });
  // Accepts connections and never says a word (a TLS client waits for the server's hello).
  silent = createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentPort = (silent.address() as { port: number }).port;
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  closedPort = (closed.address() as { port: number }).port;
  await new Promise((resolve) => closed.close(resolve));
  dir = mkdtempSync(join(tmpdir(), 'ds-mirror-reach-'));
});
afterAll(async () => {
  await sandbox?.close();
  silent?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('whether the service can be reached', () => {
  it('names the reason in plain words', async () => {
    expect(await whyUnreachable(new URL(sandbox.url), 5_000)).toBeNull();
    expect(await whyUnreachable(new URL(`http://127.0.0.1:${closedPort}`), 5_000)).toBe(
      `connection refused: nothing listens on 127.0.0.1:${closedPort}`,
    );
    expect(await whyUnreachable(new URL(sandbox.url.replace('http:', 'https:')), 5_000)).toMatch(
      /^the TLS handshake failed \(\w+\): is it an http:\/\/ address\?$/,
    );
    expect(await whyUnreachable(new URL('http://no-such-host.invalid'), 5_000)).toBe('the host name no-such-host.invalid does not resolve');
    expect(await whyUnreachable(new URL(`https://127.0.0.1:${silentPort}`), 1_000)).toBe('no answer within 1 s');
  });

  // A newcomer's first run in an empty folder (the default --db, data/mirror.db under it): the one case of
  // test/cli/newcomer-mistakes.test.ts's "mistakes in an empty folder" that reaches nothing.
  it('sync against a closed port: one line per family, exit 1, no stream run and no file made', async () => {
    const empty = mkdtempSync(join(dir, 'empty-'));
    const out = await run(process.execPath, [...LAUNCHER_FLAGS, resolve('bin/ds-mirror.js'), 'sync', '--no-progress'], {
      cwd: empty,
      env: {
        ...process.env,
        DS_DB: '',
        DS_CONFIG: '',
        DS_BASE_URL: `http://127.0.0.1:${closedPort}`,
        DS_API_KEY: 'a-key-of-some-length',
        DS_LOG_LEVEL: 'info',
      },
    }).then(
      () => ({ code: 0, stdout: '', stderr: '' }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect(out.code).toBe(1);
    expect(out.stdout).toBe('');
    const lines = out.stderr.trim().split('\n');
    expect(lines.map((l) => l.split(':')[1])).toEqual([
      ' /v1 (and charts)',
      ' keyless /v1 (market stats)',
      ' token unlocks',
      ' monitoring',
    ]);
    for (const line of lines)
      expect(line).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+ \(connection refused: nothing listens on .*\); nothing was synced/);
    // Said before the mirror is opened: a run that can reach nothing makes no file (no run, no claim), no data/.
    expect(readdirSync(empty)).toEqual([]);
  });

  it('the daemon against a closed port: one warning per family, no run at start, and it keeps its schedule', async () => {
    const child = spawn(
      process.execPath,
      [
        ...LAUNCHER_FLAGS,
        'bin/ds-mirror.js',
        '--db',
        `sqlite:${join(dir, 'daemon.db')}`,
        'daemon',
        '--metrics-port',
        '0',
        '--run-at-start',
        'all',
      ],
      {
        env: { ...process.env, DS_BASE_URL: `http://127.0.0.1:${closedPort}`, DS_API_KEY: 'a-key-of-some-length', DS_LOG_LEVEL: 'info' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    const exited = new Promise<number | null>((done) => child.on('exit', done));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', () => stdout.includes('/healthz') && resolve());
      child.on('exit', (code) => reject(new Error(`the daemon exited with ${code}: ${stderr}`)));
    });
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const warnings = stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { level: number; msg: string })
      .filter((l) => l.level === 40 && l.msg.includes('cannot reach'));
    expect(warnings).toHaveLength(4);
    for (const w of warnings) expect(w.msg).toMatch(/connection refused.*; no job runs at start, each waits for its schedule$/);
    expect(stderr).not.toMatch(/http retry/);
    expect(stdout).toMatch(/7 jobs scheduled; next /);
    expect(stdout).not.toMatch(/running now/);
  });
});
