// Faults on demand: 5xx, 429 with Retry-After, resets, truncated bodies and latency, seeded, on
// every API path but never on /health; and the request counter tests use to count calls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseChaos, startSandbox, type Sandbox } from '../../sandbox/index.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

let sb: Sandbox;

async function status(path: string): Promise<number> {
  const res = await fetch(sb.url + path, { headers: { 'x-api-key': sb.apiKey } });
  await res.arrayBuffer();
  return res.status;
}

beforeAll(async () => {
  sb = await startSandbox({ start: PINNED_START, scale: 0.1 });
});
afterAll(async () => {
  await sb.close();
});

describe('chaos', () => {
  it('5xx: answers 500 and 503 with a JSON body, on /v1, token unlocks and monitoring; /health stays up', async () => {
    sb.setChaos({ rate5xx: 1 });
    const seen = new Set<number>();
    for (let i = 0; i < 20; i++) seen.add(await status('/v1/assets?limit=1'));
    expect(seen).toEqual(new Set([500, 503]));
    const res = await fetch(`${sb.url}/monitoring/v2/categories`, { headers: { 'x-service-api-key': sb.apiKey } });
    expect([500, 503]).toContain(res.status);
    expect(await res.json()).toMatchObject({ error: expect.any(String), data: null });
    expect(await status('/health')).toBe(200);
    sb.setChaos(null);
    expect(await status('/v1/assets?limit=1')).toBe(200);
  });

  it('429 carries Retry-After', async () => {
    sb.setChaos({ rate429: 1, retryAfterSeconds: 3 });
    const res = await fetch(`${sb.url}/v1/market-stats`);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('3');
    expect(await res.json()).toMatchObject({ statusCode: 429 });
    sb.setChaos(null);
  });

  it('reset destroys the connection before any response', async () => {
    sb.setChaos({ rateReset: 1 });
    await expect(fetch(`${sb.url}/v1/market-stats`)).rejects.toThrow();
    sb.setChaos(null);
  });

  it('truncate promises the whole body in Content-Length and closes half-way', async () => {
    sb.setChaos({ rateTruncate: 1 });
    const res = await fetch(`${sb.url}/v1/market-stats?limit=100`);
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBeGreaterThan(1000);
    await expect(res.text()).rejects.toThrow();
    sb.setChaos(null);
  });

  it("html answers 200 with a proxy's HTML page: by rate, or the next N requests under one path", async () => {
    sb.setChaos({ rateHtml: 1 });
    const page = await fetch(`${sb.url}/v1/market-stats?limit=1`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toMatch(/^<!DOCTYPE html>/);
    sb.setChaos({ html: { times: 2, path: '/v1/chains' } });
    const kinds = async (path: string) =>
      (await fetch(`${sb.url}${path}`, { headers: { 'x-api-key': sb.apiKey } })).headers.get('content-type');
    expect(await kinds('/v1/market-stats?limit=1')).toMatch(/json/); // another path: untouched, nothing counted down
    expect(await kinds('/v1/chains?limit=1')).toMatch(/html/);
    expect(await kinds('/v1/chains?limit=1&page=2')).toMatch(/html/);
    expect(await kinds('/v1/chains?limit=1')).toMatch(/json/);
    expect(parseChaos('html=0.25').rateHtml).toBe(0.25);
    sb.setChaos(null);
  });

  it('latency delays every API response', async () => {
    sb.setChaos({ latencyMs: 120 });
    const t0 = performance.now();
    expect(await status('/v1/market-stats?limit=1')).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(110);
    sb.setChaos(null);
  });

  it('rates are seeded: the same chaos seed gives the same faults in the same order, near the rate', async () => {
    const run = async () => {
      sb.setChaos({ rate5xx: 0.3, seed: 5 });
      const out: number[] = [];
      for (let i = 0; i < 200; i++) out.push(await status('/v1/market-stats?limit=1'));
      sb.setChaos(null);
      return out;
    };
    const a = await run();
    expect(await run()).toEqual(a);
    const faults = a.filter((s) => s >= 500).length;
    expect(faults).toBeGreaterThan(35);
    expect(faults).toBeLessThan(85);
  });

  it('parses the --chaos flag format and refuses bad settings', () => {
    expect(parseChaos('5xx=0.05,429=0.02,reset=0.01,truncate=0.01,latency=20ms,retry-after=2,seed=9')).toEqual({
      rate5xx: 0.05,
      rate429: 0.02,
      rateReset: 0.01,
      rateTruncate: 0.01,
      latencyMs: 20,
      retryAfterSeconds: 2,
      seed: 9,
    });
    expect(parseChaos('latency=1s')).toEqual({ latencyMs: 1000 });
    expect(() => parseChaos('boom=1')).toThrow(/bad chaos setting/);
    expect(() => parseChaos('5xx=abc')).toThrow(/bad chaos setting/);
    expect(() => parseChaos('5xx=0.6,429=0.6')).toThrow(/at most 1/);
  });
});

describe('request counter', () => {
  it('counts API requests (faulted ones too), not /health; resets', async () => {
    sb.resetRequestCount();
    await status('/v1/assets?limit=1');
    await status('/v1/nothing');
    await status('/health');
    sb.setChaos({ rate5xx: 1 });
    await status('/v1/assets?limit=1');
    sb.setChaos(null);
    expect(sb.requestCount()).toBe(3);
    sb.resetRequestCount();
    expect(sb.requestCount()).toBe(0);
  });
});
