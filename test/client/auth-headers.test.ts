// Each API family gets its own credential, charts exactly one, open paths none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiFamilyOf, buildUrl, createClient, type ApiClient } from '../../src/client/index.js';
import { familyOf } from '../../src/budget/cost-model.js';
import { marketStats } from '../../src/catalog/v1.js';
import { json, startServer, type TestServer } from './test-server.js';

const KEY = 'sk-test-7c1f0e55a9';
let server: TestServer;
let client: ApiClient;

beforeAll(async () => {
  server = await startServer();
  // A path prefix on the base URL must survive into every request.
  client = createClient({ baseUrl: `${server.baseUrl}/api/`, apiKey: KEY, retries: 0 });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

const CREDENTIALS = ['x-api-key', 'x-service-api-key'];
const credentialsOf = (headers: Record<string, unknown>) => CREDENTIALS.filter((h) => headers[h] !== undefined);

describe('credentials per API family', () => {
  it.each([
    ['/v1/assets', 'v1', ['x-api-key']],
    ['/v1/projects/bitcoin/chains', 'v1', ['x-api-key']],
    ['/v1/charts', 'charts', ['x-api-key']],
    ['/v1/charts/42/data', 'charts', ['x-api-key']],
    ['/token-unlocks/v1/assets', 'tokenUnlocks', ['x-service-api-key']],
    ['/monitoring/v2/events', 'monitoring', ['x-service-api-key']],
    ['/health', 'open', []],
  ])('%s is %s and carries %j', async (path, family, expected) => {
    server.handle((_req, res) => json(res, 200, { error: null, data: [] }));
    expect(apiFamilyOf(path)).toBe(family);
    await client.get(path);
    expect(server.seen).toHaveLength(1);
    const { headers, url } = server.seen[0];
    expect(url).toBe(`/api${path}`);
    expect(credentialsOf(headers)).toEqual(expected);
    for (const h of expected) expect(headers[h]).toBe(KEY);
    expect(client.stats.byFamily[family as keyof typeof client.stats.byFamily]).toBeGreaterThan(0);
  });

  it('sends no key on a path the catalog marks keyless (market stats), and counts it as open', async () => {
    server.handle((_req, res) => json(res, 200, { page: 1, total: 0, data: [] }));
    const open = client.stats.byFamily.open;
    await client.get(marketStats.path, { page: 1 }, { keyless: marketStats.keyless });
    expect(credentialsOf(server.seen[0].headers)).toEqual([]);
    expect(client.stats.byFamily.open).toBe(open + 1);
    expect(familyOf(marketStats)).toBe('open');
  });

  it('sends exactly one credential header on charts (the service rejects two)', async () => {
    server.handle((req, res) => {
      const both = req.headers['x-api-key'] !== undefined && req.headers['x-service-api-key'] !== undefined;
      json(res, both ? 400 : 200, both ? { statusCode: 400, message: ['two credentials'] } : { page: 1, total: 0, data: [] });
    });
    await expect(client.get('/v1/charts', { page: 1, limit: 100 })).resolves.toEqual({ page: 1, total: 0, data: [] });
    const raw = server.seen[0].headers;
    expect(Object.keys(raw).filter((h) => /api-key/i.test(h))).toEqual(['x-api-key']);
  });

  it('refuses a path outside the known API families instead of guessing a credential', async () => {
    server.handle((_req, res) => json(res, 200, {}));
    await expect(client.get('/admin/users')).rejects.toMatchObject({ code: 'DS_UNKNOWN_PATH' });
    expect(server.seen).toHaveLength(0);
  });
});

describe('query strings', () => {
  it('sends arrays as repeated keys, drops undefined, keeps commas literal', async () => {
    server.handle((_req, res) => json(res, 200, { page: 1, total: 0, data: [] }));
    await client.get('/v1/assets', { category: ['defi', 'l 1'], page: 2, code: undefined, status: true, project: 'a,b' });
    expect(server.seen[0].url).toBe('/api/v1/assets?category=defi&category=l%201&page=2&status=true&project=a,b');
  });

  it('buildUrl gives the full URL the CLI prints for --plan', () => {
    expect(buildUrl('https://api.example.com/', '/v1/metrics/price', { project: 'btc,eth', page: 1 })).toBe(
      'https://api.example.com/v1/metrics/price?project=btc,eth&page=1',
    );
    expect(buildUrl('http://h/base', '/health', {})).toBe('http://h/base/health');
    expect(buildUrl('http://h', '/v1/x?a=1', { b: [1, 2] })).toBe('http://h/v1/x?a=1&b=1&b=2');
  });
});
