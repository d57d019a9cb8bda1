// Credential rules of the spec, enforced by the sandbox: x-api-key on /v1, either header on charts
// but never both, /health and /v1/market-stats open, 401 bodies that never echo a key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

let sb: Sandbox;
const KEY = 'test-key-0123456789';

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(sb.url + path, { headers });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) as Record<string, unknown> };
}

beforeAll(async () => {
  sb = await startSandbox({ start: PINNED_START, scale: 0.1, apiKey: KEY });
});
afterAll(async () => {
  await sb.close();
});

describe('authentication', () => {
  it('serves /health and /v1/market-stats without a key', async () => {
    expect((await get('/health')).status).toBe(200);
    expect((await get('/v1/market-stats?limit=1')).status).toBe(200);
  });

  it.each([
    '/v1/assets',
    '/v1/projects',
    '/v1/glossary',
    '/v1/sec/filings',
    '/v1/assets/1000/markets',
  ])('%s needs x-api-key: 401 without it, with a wrong one, or with only x-service-api-key', async (path) => {
    for (const headers of [{}, { 'x-api-key': 'wrong' }, { 'x-service-api-key': KEY }] as Record<string, string>[]) {
      const r = await get(path, headers);
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ statusCode: 401 });
      expect(typeof r.body.message).toBe('string');
    }
    expect((await get(path, { 'x-api-key': KEY })).status).toBe(200);
  });

  it('charts accept either header alone', async () => {
    expect((await get('/v1/charts?limit=1', { 'x-api-key': KEY })).status).toBe(200);
    expect((await get('/v1/charts?limit=1', { 'X-Service-API-Key': KEY })).status).toBe(200);
  });

  it('charts reject a request carrying both credentials with 401, even when both are valid', async () => {
    const r = await get('/v1/charts', { 'x-api-key': KEY, 'x-service-api-key': KEY });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ statusCode: 401, message: expect.any(String) });
  });

  it('charts answer 401 {statusCode, message} for a missing or invalid key', async () => {
    for (const headers of [{}, { 'x-service-api-key': 'nope' }] as Record<string, string>[]) {
      const r = await get('/v1/charts', headers);
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ statusCode: 401, message: expect.any(String) });
    }
  });

  it('checks the key before validating parameters', async () => {
    expect((await get('/v1/assets?limit=0')).status).toBe(401);
    expect((await get('/v1/assets?limit=0', { 'x-api-key': KEY })).status).toBe(400);
  });

  it('never echoes a key in an error body', async () => {
    const r = await get('/v1/assets', { 'x-api-key': 'secret-looking-key-xyz' });
    expect(r.text).not.toContain('secret-looking-key-xyz');
    const both = await get('/v1/charts', { 'x-api-key': KEY, 'x-service-api-key': KEY });
    expect(both.text).not.toContain(KEY);
  });

  it('answers 404 for paths that are not in the spec', async () => {
    expect((await get('/v1/nothing', { 'x-api-key': KEY })).status).toBe(404);
    expect((await get('/v2/assets', { 'x-api-key': KEY })).status).toBe(404);
  });
});
