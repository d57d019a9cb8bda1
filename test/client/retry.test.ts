// @end-to-end
// Retries on 429, 5xx, resets, truncated bodies and time-outs; none on 400, 401, 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AbandonedCallError,
  BadResponseError,
  backoffDelay,
  createClient,
  dataArray,
  jsonObjectBytes,
  NotFoundError,
  parseRetryAfter,
  type ApiClient,
} from '../../src/client/index.js';
import { errorAction } from '../../src/errors.js';
import { json, startServer, type Handler, type TestServer } from './test-server.js';

let server: TestServer;
let client: ApiClient;
/**
 * For the attempts that can only end by their time-out: a shorter one and one retry (the count of retries is
 * the 503 case's), 2 × 0.4 s instead of 4 × 1 s each. No answer is awaited within it.
 */
let stalled: ApiClient;
const OK = { page: 1, total: 1, data: [{ id: 1 }] };

beforeAll(async () => {
  server = await startServer();
  client = createClient({
    baseUrl: server.baseUrl,
    apiKey: 'k-retry-test',
    retries: 3,
    timeoutMs: 1_000, // generous: a busy machine must not turn a slow answer into a retry
    backoff: { initialMs: 5, maxMs: 2_000 },
  });
  stalled = createClient({
    baseUrl: server.baseUrl,
    apiKey: 'k-retry-test',
    retries: 1,
    timeoutMs: 400,
    backoff: { initialMs: 5, maxMs: 5 },
  });
});
afterAll(async () => {
  await client.close();
  await stalled.close();
  await server.close();
});

/** Fails the first `failures` hits with `fail`, then answers OK. */
function failThenOk(failures: number, fail: Handler): Handler {
  return (req, res, hit) => (hit <= failures ? fail(req, res, hit) : json(res, 200, OK));
}

describe('retried failures', () => {
  it.each([500, 502, 503, 429])('retries HTTP %i and then returns the body', async (status) => {
    server.handle(failThenOk(2, (_req, res) => json(res, status, { statusCode: status, message: 'busy' })));
    const before = client.stats.retries;
    await expect(client.get('/v1/assets')).resolves.toEqual(OK);
    expect(server.seen).toHaveLength(3);
    expect(client.stats.retries - before).toBe(2);
  });

  it('waits the Retry-After seconds of a 429 before trying again', async () => {
    server.handle(failThenOk(1, (_req, res) => json(res, 429, { message: 'slow down' }, { 'retry-after': '1' })));
    await expect(client.get('/monitoring/v2/categories')).resolves.toEqual(OK);
    const gap = server.seen[1].at - server.seen[0].at;
    expect(gap).toBeGreaterThanOrEqual(950);
  });

  it('retries a reset connection', async () => {
    server.handle(failThenOk(1, (req) => req.socket.destroy()));
    await expect(client.get('/v1/assets')).resolves.toEqual(OK);
    expect(server.seen).toHaveLength(2);
  });

  it('retries a body cut short (connection closed before Content-Length bytes)', async () => {
    server.handle(
      failThenOk(1, (req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write('{"page":1,"data":[');
        setTimeout(() => req.socket.destroy(), 10);
      }),
    );
    await expect(client.get('/v1/assets')).resolves.toEqual(OK);
    expect(server.seen).toHaveLength(2);
  });

  it('retries a complete response whose JSON is truncated', async () => {
    server.handle(
      failThenOk(1, (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"page":1,"data":[{"id":1');
      }),
    );
    await expect(client.get('/v1/assets')).resolves.toEqual(OK);
    expect(server.seen).toHaveLength(2);
  });

  it('retries a server that never answers, within the per-attempt time-out', async () => {
    server.handle(failThenOk(1, () => undefined));
    const started = performance.now();
    await expect(client.get('/v1/assets')).resolves.toEqual(OK);
    expect(server.seen).toHaveLength(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
  });

  it('times out a body that stalls after the headers', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":[');
    });
    const err = await stalled.get('/v1/assets').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'DS_TIMEOUT', attempts: 2, status: null });
    expect(errorAction(err)).toBe('retry');
    expect(server.seen).toHaveLength(2);
  });

  it('times out a body that drips slower than the whole attempt allows (the overall deadline)', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      // Each gap is shorter than bodyTimeout, so only the per-attempt deadline can end this.
      const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write(' ')), 40);
      res.on('close', () => clearInterval(drip));
    });
    const err = await stalled.get('/v1/assets').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'DS_TIMEOUT', attempts: 2 });
    expect(server.seen).toHaveLength(2);
  });

  it('gives up after the configured retries with the last error', async () => {
    server.handle((_req, res) => json(res, 503, { statusCode: 503, message: 'maintenance' }));
    const err = await client.get('/v1/charts', { page: 1 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'DS_HTTP_STATUS', status: 503, attempts: 4 });
    expect(errorAction(err)).toBe('retry');
    expect(server.seen).toHaveLength(4);
  });
});

const PROXY_PAGE = '<!DOCTYPE html>\n<html>\n<body>\n<h1>502 Bad Gateway</h1>\n</body>\n</html>\n';
const proxyPage: Handler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end(PROXY_PAGE);
};

describe('bodies checked inside the attempt', () => {
  it('retries a 200 HTML page on get, then returns the JSON body', async () => {
    server.handle(failThenOk(1, proxyPage));
    await expect(client.get('/v1/assets')).resolves.toEqual(OK);
    expect(server.seen).toHaveLength(2);
  });

  it("retries a 200 HTML page on getBytes when the caller's check refuses it, then returns the bytes", async () => {
    server.handle(failThenOk(2, proxyPage));
    const bytes = await client.getBytes('/v1/assets', undefined, { check: jsonObjectBytes });
    expect(JSON.parse(bytes.toString('utf8'))).toEqual(OK);
    expect(server.seen).toHaveLength(3);
  });

  it('fails after the retries with one line naming the endpoint, "not JSON" and the content type', async () => {
    server.handle(proxyPage);
    const err = await client.getBytes('/v1/assets', { page: 2 }, { check: jsonObjectBytes }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadResponseError);
    expect(server.seen).toHaveLength(4);
    const message = (err as Error).message;
    expect(message).toMatch(
      /^GET \/v1\/assets\?page=2 returned a body that is not JSON .*text\/html.* after 4 attempts: <!DOCTYPE html> <html>/,
    );
    expect(message).not.toContain('\n');
  });

  it("retries a parsed body that fails the caller's check", async () => {
    server.handle(failThenOk(1, (_req, res) => json(res, 200, { data: null })));
    await expect(client.get('/v1/assets', undefined, { check: dataArray })).resolves.toEqual(OK);
    expect(server.seen).toHaveLength(2);
  });

  it('passes unchecked bytes through untouched (a caller without a check gets the HTML)', async () => {
    server.handle(proxyPage);
    expect((await client.getBytes('/v1/assets')).toString('utf8')).toBe(PROXY_PAGE);
    expect(server.seen).toHaveLength(1);
  });
});

describe('failures that are not retried', () => {
  it.each([
    [400, 'DS_HTTP_STATUS'],
    [401, 'DS_AUTH'],
    [403, 'DS_AUTH'],
    [404, 'DS_NOT_FOUND'],
  ])('HTTP %i fails at once with %s', async (status, code) => {
    server.handle((_req, res) => json(res, status, { statusCode: status, message: 'no' }));
    // A client of its own: a refused key (401, 403) stops its family for the rest of the client's life.
    const own = createClient({ baseUrl: server.baseUrl, apiKey: 'k-retry-test', retries: 3, backoff: { initialMs: 5, maxMs: 2_000 } });
    const err = await own.get('/v1/assets/x').catch((e: unknown) => e);
    await own.close();
    expect(err).toMatchObject({ code, status, attempts: 1 });
    expect(server.seen).toHaveLength(1);
  });

  it('classes a 404 as an item to skip, so a fan-out can go on', async () => {
    server.handle((_req, res) => json(res, 404, {}));
    const err = await client.get('/v1/assets/gone/markets').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect(errorAction(err)).toBe('skip');
  });
});

describe('an abandoned call', () => {
  // The wait before the retry is an hour: only the abandon can end this test within its time-out.
  const patient = () =>
    createClient({ baseUrl: server.baseUrl, apiKey: 'k-abandon-test', retries: 3, backoff: { initialMs: 3_600_000, maxMs: 3_600_000 } });

  it('sends no retry once its caller abandons it, even mid-wait, and is not counted as an error', { timeout: 60_000 }, async () => {
    const abandoned = new AbortController();
    server.handle((_req, res) => {
      json(res, 503, { message: 'busy' }, { 'retry-after': '3600' });
      setImmediate(() => abandoned.abort());
    });
    const c = patient();
    try {
      const error = await c.get('/v1/assets', undefined, { signal: abandoned.signal }).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(AbandonedCallError);
      expect(server.seen).toHaveLength(1);
      expect(c.stats).toMatchObject({ requests: 1, retries: 0, errors: 0 });
    } finally {
      await c.close();
    }
  });

  it(
    "leaves a 429's pause of the whole family at once when abandoned, the attempt waiting there given back",
    { timeout: 60_000 },
    async () => {
      // The client has paused the family once it reports the 429 (onRequest follows the pause): the server's
      // having seen the request is not enough, as under load the client may not have read the answer yet.
      let refused!: () => void;
      const pausedNow = new Promise<void>((resolve) => (refused = resolve));
      const c = createClient({
        baseUrl: server.baseUrl,
        apiKey: 'k-abandon-test',
        retries: 3,
        backoff: { initialMs: 1, maxMs: 1 },
        onRequest: (e) => e.status === 429 && refused(),
      });
      server.handle((_req, res) => json(res, 429, { message: 'slow down' }, { 'retry-after': '240' })); // four minutes, within a 429's wait
      const first = new AbortController();
      const paused = c.get('/v1/assets', undefined, { signal: first.signal }).catch((err: unknown) => err); // its 429 pauses the v1 family
      await pausedNow;
      const abandoned = new AbortController();
      const waiting = c.get('/v1/chains', undefined, { signal: abandoned.signal }).catch((err: unknown) => err);
      await new Promise((r) => setTimeout(r, 50)); // it is now waiting in the pause
      abandoned.abort();
      try {
        expect(await waiting).toBeInstanceOf(AbandonedCallError);
        expect(server.seen.map((r) => r.url)).not.toContainEqual(expect.stringContaining('/v1/chains'));
        expect(c.stats.requests).toBe(1); // the 429 only: the attempt admitted into the pause was given back
      } finally {
        first.abort();
        await paused;
        await c.close();
      }
    },
  );

  it('sends nothing when abandoned before it starts', async () => {
    server.handle((_req, res) => json(res, 200, OK));
    const c = patient();
    try {
      await expect(c.get('/v1/assets', undefined, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AbandonedCallError);
      expect(server.seen).toHaveLength(0);
      expect(c.stats.requests).toBe(0);
    } finally {
      await c.close();
    }
  });
});

describe('backoff arithmetic', () => {
  it('full jitter stays within [0, min(max, initial * 2^(n-1))]', () => {
    const b = { initialMs: 100, maxMs: 1_000 };
    expect(backoffDelay(1, b, () => 0.999)).toBe(100);
    expect(backoffDelay(3, b, () => 0.5)).toBe(200);
    expect(backoffDelay(10, b, () => 0.999)).toBe(999);
    expect(backoffDelay(4, b, () => 0)).toBe(0);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3_000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:07 GMT', now)).toBe(7_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:59:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });

  it('reads a negative or numeric-but-odd Retry-After as none, so the normal backoff applies', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    // Each of these parses as some date in JavaScript (the year -5, ...), which meant "retry at once".
    for (const odd of ['-5', '-0.5', '-1', '12.5.2020', '', 'in 5 s']) expect(parseRetryAfter(odd, now), odd).toBeNull();
  });
});
