// @end-to-end
// `ds-mirror daemon` as a child process: bound beyond loopback it refuses to start without "metricsAuth",
// and with it serves /status (and /healthz) only to whoever sends the credential.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '../scheduler/scrape.js';
import { cliArgs } from '../helpers/launcher.js';

const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-status-cli-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** The daemon on every address, its jobs waiting for their schedules; nothing here reaches a service. */
function spawnWith(flags: string[], config: object) {
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ timezone: 'UTC', ...config }));
  const child = spawn(
    process.execPath,
    cliArgs(['--config', join(dir, 'config.json'), '--db', `sqlite:${join(dir, 'mirror.db')}`, 'daemon', ...flags]),
    {
      env: { ...process.env, DS_BASE_URL: 'http://127.0.0.1:9', DS_API_KEY: 'not-a-real-key', DS_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  return { child, out: () => out, exited: new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code))) };
}

const HOST = ['--metrics-host', '0.0.0.0', '--metrics-port', '0', '--run-at-start', 'none'];

describe('ds-mirror daemon bound beyond loopback', () => {
  it('refuses to start without a credential, in one line that names the fix', async () => {
    const refused = spawnWith(HOST, {});
    expect(await refused.exited).toBe(2);
    expect(refused.out()).toMatch(/listen on 0\.0\.0\.0 without a credential: set "metricsAuth"/);
    expect(refused.out()).not.toContain('not-a-real-key');
  }, 120_000);

  it('with basic auth, answers 401 without it and the page with it', async () => {
    writeFileSync(join(dir, 'status-auth'), 'ops:correct horse\n');
    const d = spawnWith(HOST, { metricsAuth: { basicAuthFile: join(dir, 'status-auth') } });
    const url = await waitFor('the daemon to print its status URL', () => {
      if (d.child.exitCode !== null) throw new Error(`the daemon exited with ${d.child.exitCode}: ${d.out()}`);
      return /status (http:\/\/[\d.:]+)\/status/.exec(d.out())?.[1]?.replace('0.0.0.0', '127.0.0.1');
    });
    const denied = await request(`${url}/status`);
    expect([denied.statusCode, denied.headers['www-authenticate']]).toEqual([401, 'Basic realm="ds-mirror", charset="UTF-8"']);
    await denied.body.dump();
    const health = await request(`${url}/healthz`);
    await health.body.dump();
    expect(health.statusCode).toBe(401);
    const authorization = `Basic ${Buffer.from('ops:correct horse').toString('base64')}`;
    const page = await request(`${url}/status`, { headers: { authorization } });
    expect(page.statusCode).toBe(200);
    const body = await page.body.text();
    expect(body).toContain('<h1>ds-mirror status</h1>');
    expect(body).not.toContain('correct horse');
    expect(body).not.toContain('not-a-real-key');
    d.child.kill('SIGTERM');
    expect(await d.exited).toBe(0);
  }, 240_000);
});
