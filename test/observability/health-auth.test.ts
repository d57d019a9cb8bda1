// The daemon's HTTP endpoints beyond loopback: refused without a credential, and with one, every path
// answers 401 until the credential comes (bearer token or basic auth), compared exactly.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { httpCredential, loadConfig, type HttpCredential } from '../../src/config.js';
import { ConfigError } from '../../src/errors.js';
import { startHealthServer, type HealthServer } from '../../src/observability/health-server.js';
import { authorized, isLoopback } from '../../src/observability/http-auth.js';

const TOKEN = 'a-long-enough-token-0123456789';
const servers: HealthServer[] = [];
afterEach(async () => {
  while (servers.length) await servers.pop()!.close();
});

async function serve(host: string, auth?: HttpCredential): Promise<string> {
  const server = await startHealthServer({
    port: 0,
    host,
    auth,
    logger: pino({ level: 'silent' }),
    health: () => ({ ok: true, body: { status: 'ok' } }),
    metrics: { contentType: 'text/plain', render: async () => 'up 1\n' },
    statusPage: async () => '<!doctype html><title>status</title>',
  });
  servers.push(server);
  // Bound to every address: reach it over loopback.
  return server.url.replace('0.0.0.0', '127.0.0.1');
}

const get = async (url: string, authorization?: string, method: 'GET' | 'POST' = 'GET') => {
  const res = await request(url, { method, headers: authorization ? { authorization } : {} });
  return { status: res.statusCode, challenge: res.headers['www-authenticate'], body: await res.body.text() };
};
const basic = (pair: string) => `Basic ${Buffer.from(pair).toString('base64')}`;

describe('the health server beyond loopback', () => {
  it('refuses to start without a credential, naming the fix', async () => {
    const started = serve('0.0.0.0');
    await expect(started).rejects.toThrow(ConfigError);
    await expect(started).rejects.toThrow(/without a credential: set "metricsAuth"/);
  });

  it('with a bearer token, answers 401 on every path until it comes', async () => {
    const url = await serve('0.0.0.0', { bearer: TOKEN });
    for (const path of ['/status', '/', '/healthz', '/metrics', '/nowhere']) {
      const res = await get(`${url}${path}`);
      expect([res.status, res.challenge], path).toEqual([401, 'Bearer realm="ds-mirror"']);
      expect(res.body).not.toContain('status</title>');
    }
    expect((await get(`${url}/status`, `Bearer ${TOKEN}x`)).status).toBe(401);
    expect((await get(`${url}/status`, basic(`x:${TOKEN}`))).status).toBe(401);
    const page = await get(`${url}/status`, `Bearer ${TOKEN}`);
    expect([page.status, page.body]).toEqual([200, '<!doctype html><title>status</title>']);
    expect((await get(`${url}/metrics`, `bearer ${TOKEN}`)).body).toBe('up 1\n');
    expect((await get(`${url}/status`, `Bearer ${TOKEN}`, 'POST')).status).toBe(405);
  });

  it('with basic auth, a browser is asked for the user and password', async () => {
    const url = await serve('0.0.0.0', { basic: { user: 'ops', password: 'pa:ss word' } });
    const denied = await get(`${url}/status`);
    expect([denied.status, denied.challenge]).toEqual([401, 'Basic realm="ds-mirror", charset="UTF-8"']);
    expect((await get(`${url}/status`, basic('ops:pa:ss wor'))).status).toBe(401);
    expect((await get(`${url}/status`, `Bearer ${TOKEN}`)).status).toBe(401);
    expect((await get(`${url}/status`, basic('ops:pa:ss word'))).status).toBe(200);
  });

  it('on loopback, needs no credential unless one is configured', async () => {
    expect((await get(`${await serve('127.0.0.1')}/status`)).status).toBe(200);
    expect((await get(`${await serve('127.0.0.1', { bearer: TOKEN })}/status`)).status).toBe(401);
  });
});

describe('isLoopback and authorized', () => {
  it('knows the loopback addresses', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', 'localhost']) expect(isLoopback(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.1', '192.168.1.2', 'example.org', '128.0.0.1']) expect(isLoopback(host), host).toBe(false);
  });

  it('refuses headers without a scheme or a value', () => {
    for (const header of [undefined, '', 'Bearer', TOKEN, ` ${TOKEN}`])
      expect(authorized(header, { bearer: TOKEN }), String(header)).toBe(false);
  });
});

describe('metricsAuth in the config file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-auth-'));
  const configWith = (auth: object, secret: string) => {
    writeFileSync(join(dir, 'secret'), `${secret}\n`);
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ metricsAuth: auth }));
    return loadConfig({ config: join(dir, 'config.json') }, {});
  };

  it('reads the token or the user:password from its file', () => {
    expect(httpCredential(configWith({ bearerTokenFile: join(dir, 'secret') }, TOKEN))).toEqual({ bearer: TOKEN });
    expect(httpCredential(configWith({ basicAuthFile: join(dir, 'secret') }, 'ops:pw:x'))).toEqual({
      basic: { user: 'ops', password: 'pw:x' },
    });
    expect(httpCredential(loadConfig({}, {}))).toBeNull();
  });

  it('refuses a short token, a pair without a password, and both kinds at once, in one line', () => {
    expect(() => httpCredential(configWith({ bearerTokenFile: join(dir, 'secret') }, 'short'))).toThrow(/shorter than 16 characters/);
    expect(() => httpCredential(configWith({ basicAuthFile: join(dir, 'secret') }, 'ops:'))).toThrow(/expected one line user:password/);
    expect(() => configWith({ bearerTokenFile: 'a', basicAuthFile: 'b' }, TOKEN)).toThrow(ConfigError);
  });
});
