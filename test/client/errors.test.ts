// Errors say what failed (endpoint, status, excerpt, the server's words) and never hold the key,
// not in the message, the stack, a cause, nor in a log line.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type ApiClient, type ClientError } from '../../src/client/index.js';
import { DsMirrorError, errorAction } from '../../src/errors.js';
import { json, startServer, type TestServer } from './test-server.js';

const KEY = 'sk-live-SECRET-4b9e2d7a';
let server: TestServer;
let client: ApiClient;
const logLines: string[] = [];

const logger = pino({ level: 'debug' }, { write: (line: string) => void logLines.push(line) });
/** A client of its own: a refused key stops its family for the rest of a client's life. */
const newClient = (): ApiClient =>
  createClient({
    baseUrl: server.baseUrl,
    apiKey: KEY,
    keySource: 'DS_API_KEY',
    retries: 1,
    timeoutMs: 200,
    backoff: { initialMs: 1, maxMs: 10 },
    logger,
  });

beforeAll(async () => {
  server = await startServer();
  client = newClient();
});
afterAll(async () => {
  await client.close();
  await server.close();
});

/** Every string reachable from an error: message, stack, own fields, and the whole cause chain. */
function allText(err: unknown, depth = 0): string {
  if (err === null || err === undefined || depth > 5) return '';
  if (typeof err !== 'object') return String(err);
  const e = err as Error & { cause?: unknown };
  const fields = Object.entries(e).map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
  return [String(e), e.stack ?? '', ...fields, allText(e.cause, depth + 1)].join('\n');
}

/** The error of one call, made by a new client (so that no earlier refusal of a key decides it). */
async function failWith(path: string, query?: Record<string, string>): Promise<ClientError> {
  const own = newClient();
  try {
    return await own.get(path, query).then(
      () => {
        throw new Error(`expected ${path} to fail`);
      },
      (e: unknown) => e as ClientError,
    );
  } finally {
    await own.close();
  }
}

describe('what an error says', () => {
  it('names the endpoint with its query, the status and an excerpt of the body', async () => {
    const long = 'x'.repeat(1_000);
    server.handle((_req, res) => json(res, 400, { statusCode: 400, message: ['limit must not be greater than 100'], error: long }));
    const err = await failWith('/v1/charts', { limit: '500' });
    expect(err).toBeInstanceOf(DsMirrorError);
    expect(err).toMatchObject({ code: 'DS_HTTP_STATUS', status: 400, endpoint: 'GET /v1/charts?limit=500', family: 'charts' });
    expect(err.message).toContain('GET /v1/charts?limit=500');
    expect(err.message).toContain('HTTP 400');
    expect(err.message).toContain('limit must not be greater than 100');
    expect(err.bodyExcerpt?.length).toBeLessThanOrEqual(300);
    expect(err.bodyExcerpt?.startsWith('{"statusCode":400')).toBe(true);
  });

  it('tells the user to check the key and header on 401', async () => {
    server.handle((_req, res) => json(res, 401, { statusCode: 401, message: 'Unauthorized' }));
    const err = await failWith('/v1/charts');
    expect(err).toMatchObject({ code: 'DS_AUTH', status: 401 });
    expect(err.message).toMatch(
      /the API key from DS_API_KEY, sent as x-api-key \(HTTP 401 on GET \/v1\/charts: Unauthorized\).*: check the key$/,
    );
  });
});

describe('monitoring and token-unlock envelopes', () => {
  it('turns `invalid auth mechanism` into DS_AUTH, whatever the status', async () => {
    for (const status of [200, 401, 500]) {
      server.handle((_req, res) => json(res, status, { error: 'invalid auth mechanism', data: null }));
      const err = await failWith('/token-unlocks/v1/assets');
      expect(err).toMatchObject({ code: 'DS_AUTH', serverMessage: 'invalid auth mechanism', family: 'tokenUnlocks' });
      expect(err.message).toMatch(/the API key from DS_API_KEY, sent as X-Service-API-Key .*: check the key$/);
    }
  });

  it('treats a non-null `error` as an error even with status 200, with the server message', async () => {
    server.handle((_req, res) => json(res, 200, { error: 'monitoring view not found', data: null }));
    const err = await failWith('/monitoring/v2/monitoring-views/abc');
    expect(err).toMatchObject({ code: 'DS_API_ERROR', status: 200, serverMessage: 'monitoring view not found' });
    expect(err.message).toContain('monitoring view not found');
    expect(server.seen).toHaveLength(1);
  });

  it('quotes the server message of a 400 (an unresolvable event id)', async () => {
    server.handle((_req, res) => json(res, 400, { error: 'unknown event identifier "nope-123"', data: null }));
    const err = await failWith('/monitoring/v2/events', { eventIds: 'nope-123' });
    expect(err).toMatchObject({ code: 'DS_HTTP_STATUS', status: 400 });
    expect(errorAction(err)).toBe('fail');
    expect(err.message).toContain('"nope-123"');
  });

  it('returns the envelope untouched when `error` is null', async () => {
    const body = { error: null, data: [{ slug: 'tokenomics' }], metadata: { limit: 10, page: 1, totalRows: 1, totalPages: 1 } };
    server.handle((_req, res) => json(res, 200, body));
    await expect(client.get('/monitoring/v2/categories')).resolves.toEqual(body);
  });

  it('does not read `error` as an envelope on /v1 bodies', async () => {
    server.handle((_req, res) => json(res, 200, { id: 1, error: 'a field of the record' }));
    await expect(client.get('/v1/glossary/1')).resolves.toEqual({ id: 1, error: 'a field of the record' });
  });
});

describe('the key never leaks', () => {
  it('is absent from every error, cause and log line, even when the server echoes it back', async () => {
    const echo = `invalid key ${KEY}`;
    const failures: [string, (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void][] = [
      ['/v1/assets', (_req, res) => json(res, 400, { message: echo })],
      ['/v1/charts', (_req, res) => json(res, 401, { statusCode: 401, message: echo })],
      ['/monitoring/v2/events', (_req, res) => json(res, 200, { error: echo, data: null })],
      ['/token-unlocks/v1/assets', (_req, res) => json(res, 503, { error: echo, data: null })],
      ['/v1/assets/x', (_req, res) => json(res, 404, { detail: echo })],
      ['/v1/assets', (_req, res) => res.end(`<html>${echo}`)],
      ['/v1/assets', (req) => req.socket.destroy()],
      ['/v1/assets', () => undefined],
    ];
    const errors: unknown[] = [];
    for (const [path, handler] of failures) {
      server.handle(handler);
      errors.push(await failWith(path));
    }
    expect(errors.map((e) => (e as DsMirrorError).code)).toEqual([
      'DS_HTTP_STATUS',
      'DS_AUTH',
      'DS_API_ERROR',
      'DS_HTTP_STATUS',
      'DS_NOT_FOUND',
      'DS_BAD_RESPONSE',
      'DS_NETWORK',
      'DS_TIMEOUT',
    ]);
    for (const err of errors) {
      const text = allText(err);
      expect(text).not.toContain(KEY);
      expect(text).toMatch(/GET \//);
    }
    // The server did get the key, so the checks above are not vacuous.
    expect(server.seen[0].headers['x-api-key']).toBe(KEY);
    expect(allText(errors[0])).toContain('[redacted]');
    expect(logLines.some((l) => l.includes('"msg":"http retry"'))).toBe(true);
    expect(logLines.some((l) => l.includes('"msg":"http request"'))).toBe(true);
    for (const line of logLines) expect(line).not.toContain(KEY);
  });
});

describe('a closed client', () => {
  it('sends nothing, says so in one line, retries nothing and counts nothing', async () => {
    const closed = createClient({ baseUrl: server.baseUrl, apiKey: KEY, retries: 3, backoff: { initialMs: 1, maxMs: 10 } });
    await closed.close();
    server.handle((_req, res) => json(res, 200, {}));
    const err = await closed.get('/v1/charts').catch((e: unknown) => e as ClientError);
    expect(err).toMatchObject({ code: 'DS_NETWORK' });
    expect((err as Error).message).toContain('could not be sent');
    expect(server.seen).toHaveLength(0);
    expect(closed.stats).toMatchObject({ requests: 0, retries: 0 });
  });
});
