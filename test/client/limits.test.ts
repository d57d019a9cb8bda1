// @end-to-end
// Rate limit, concurrency limit and the request budget, each per API family.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, RequestBudgetError } from '../../src/client/index.js';
import { json, startServer, type TestServer } from './test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const many = (n: number, f: (i: number) => Promise<unknown>) => Promise.all(Array.from({ length: n }, (_, i) => f(i)));

describe('rate limit', () => {
  it('spaces requests evenly at the configured rate, with no burst at the start', async () => {
    server.handle((_req, res) => json(res, 200, { error: null, data: [] }));
    // 6100/min = one every 10 ms (the minute plus its 1 s margin, over 6100), whatever the concurrency.
    const client = createClient({
      baseUrl: server.baseUrl,
      apiKey: 'k',
      limits: { monitoring: { requestsPerMinute: 6_100, concurrency: 4 } },
    });
    const started = performance.now();
    await many(22, () => client.get('/monitoring/v2/categories'));
    const elapsed = performance.now() - started;
    await client.close();
    expect(server.seen).toHaveLength(22);
    // The 22nd left at least 21 intervals after the first: no burst (a bucket with a burst of 4 needs 180 ms).
    // A slow machine only makes it longer. The spacing itself is walked on a simulated clock in minute-pace.test.ts.
    expect(elapsed).toBeGreaterThanOrEqual(21 * 10);
  });

  it('keeps the families apart: a slow family does not hold up another', async () => {
    server.handle((_req, res) => json(res, 200, { error: null, data: [] }));
    const client = createClient({
      baseUrl: server.baseUrl,
      apiKey: 'k',
      limits: { tokenUnlocks: { requestsPerMinute: 30, concurrency: 1 }, v1: { requestsPerMinute: 60_000, concurrency: 4 } },
    });
    // Spends the only token for 2 seconds: ten /v1 requests on loopback take a few tens of ms, so they end
    // first unless they queue behind it.
    await client.get('/token-unlocks/v1/assets');
    let slowDone = false;
    const slow = client.get('/token-unlocks/v1/assets').then(() => (slowDone = true));
    await many(10, () => client.get('/v1/assets'));
    expect(slowDone).toBe(false); // the /v1 requests did not queue behind it
    await slow;
    await client.close();
  });
  it("holds the whole family for a 429's Retry-After, not only the request that got it", async () => {
    server.handle((_req, res, hit) => (hit === 1 ? json(res, 429, {}, { 'retry-after': '1' }) : json(res, 200, { error: null, data: [] })));
    let second: Promise<unknown> | undefined;
    const client = createClient({
      baseUrl: server.baseUrl,
      apiKey: 'k',
      backoff: { initialMs: 1, maxMs: 5_000 },
      // Once the 429 is back, another request of the same family starts: it must wait too.
      onRequest: (e) => void (e.status === 429 && (second = client.get('/monitoring/v2/categories'))),
    });
    await client.get('/monitoring/v2/events');
    await second;
    await client.close();
    expect(server.seen).toHaveLength(3);
    for (const later of server.seen.slice(1)) expect(later.at - server.seen[0].at).toBeGreaterThanOrEqual(950);
  });
});

describe('concurrency limit', () => {
  it('never has more than the limit in flight on the server', async () => {
    server.handle((_req, res) => setTimeout(() => json(res, 200, { page: 1, data: [] }), 20));
    const client = createClient({ baseUrl: server.baseUrl, apiKey: 'k', limits: { v1: { concurrency: 3, requestsPerMinute: 1e6 } } });
    await many(15, (i) => client.get('/v1/assets', { page: i + 1 }));
    await client.close();
    expect(server.seen).toHaveLength(15);
    expect(server.maxInFlight).toBe(3);
  });

  it('charts share the /v1 lane unless configured on their own', async () => {
    server.handle((_req, res) => setTimeout(() => json(res, 200, { page: 1, data: [] }), 20));
    const client = createClient({ baseUrl: server.baseUrl, apiKey: 'k', limits: { v1: { concurrency: 2, requestsPerMinute: 1e6 } } });
    await many(8, (i) => client.get(i % 2 ? '/v1/charts' : '/v1/assets'));
    await client.close();
    expect(server.maxInFlight).toBe(2);
  });
});

describe('request budget', () => {
  it('stops with DS_REQUEST_BUDGET once maxRequests are spent, sending nothing more', async () => {
    server.handle((_req, res) => json(res, 200, { page: 1, data: [] }));
    const client = createClient({ baseUrl: server.baseUrl, apiKey: 'k', maxRequests: 3 });
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => client.get('/v1/assets')));
    await client.close();
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(rejected).toHaveLength(2);
    for (const r of rejected) {
      expect(r.reason).toBeInstanceOf(RequestBudgetError);
      expect(r.reason).toMatchObject({ code: 'DS_REQUEST_BUDGET', maxRequests: 3 });
    }
    expect(server.seen).toHaveLength(3);
    expect(client.stats).toMatchObject({ requests: 3, errors: 2 });
  });

  it('counts retries against the budget', async () => {
    server.handle((_req, res) => json(res, 500, {}));
    const client = createClient({ baseUrl: server.baseUrl, apiKey: 'k', maxRequests: 2, backoff: { initialMs: 1, maxMs: 5 } });
    await expect(client.get('/v1/assets')).rejects.toMatchObject({ code: 'DS_REQUEST_BUDGET' });
    await client.close();
    expect(server.seen).toHaveLength(2);
  });
});

describe('options', () => {
  it.each([
    [{ limits: { v1: { concurrency: 0 } } }, /concurrency/],
    [{ limits: { monitoring: { requestsPerMinute: 0 } } }, /requestsPerMinute/],
    [{ retries: -1 }, /retries/],
    [{ baseUrl: 'ftp://x' }, /http or https/],
    [{ backoff: { initialMs: 100, maxMs: 10 } }, /backoff/],
    [{ maxRequests: 1.5 }, /maxRequests/],
  ])('rejects %j with a ConfigError', (bad, message) => {
    expect(() => createClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', ...bad })).toThrow(message);
  });
});
