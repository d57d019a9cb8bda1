// A service that counts requests per calendar minute (or over any 60 s) never sees more than the
// configured figure: the pacer walked on a simulated clock from many starting moments, with late timers
// and jittery arrivals; and over real HTTP, a gateway's per-minute 429 is waited out, not a stop.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { MinutePacer } from '../../src/client/minute-pacer.js';
import { json, startServer, type TestServer } from './test-server.js';

/** A seeded generator, so a failure names a case that can be run again. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

/**
 * Sends `n` requests through a pacer on a simulated clock that starts at `startMs` (any moment of a
 * minute), with `workers` callers at once, timers that fire a little late (now and then 40 ms) and arrivals
 * 5–600 ms after the send (a distant service's round trips vary that much). Returns the arrival times the service counts.
 */
async function simulate(perMinute: number, n: number, startMs: number, workers: number, seed: number): Promise<number[]> {
  const random = rng(seed);
  let now = startMs;
  const timers: { at: number; resolve: () => void }[] = [];
  const pacer = new MinutePacer(
    perMinute,
    () => now,
    (ms) => new Promise<void>((resolve) => timers.push({ at: now + ms + (random() < 0.05 ? random() * 40 : random()), resolve })),
  );
  const arrivals: number[] = [];
  let left = n;
  const worker = async () => {
    while (left-- > 0) {
      await pacer.take();
      arrivals.push(now + 5 + random() * 595);
    }
  };
  const done = Promise.all(Array.from({ length: workers }, worker));
  let finished = false;
  void done.then(() => (finished = true));
  while (!finished) {
    await new Promise((r) => setImmediate(r)); // let every ready caller run before time moves
    timers.sort((a, b) => a.at - b.at);
    const next = timers.shift();
    if (!next) continue;
    now = Math.max(now, next.at);
    next.resolve();
  }
  return arrivals.sort((a, b) => a - b);
}

const MINUTE = 60_000;

function busiestCalendarMinute(arrivals: number[]): number {
  const perMinute = new Map<number, number>();
  for (const a of arrivals) perMinute.set(Math.floor(a / MINUTE), (perMinute.get(Math.floor(a / MINUTE)) ?? 0) + 1);
  return Math.max(...perMinute.values());
}

function busiestSlidingMinute(arrivals: number[]): number {
  let most = 0;
  for (let i = 0, j = 0; j < arrivals.length; j++) {
    while (arrivals[j]! - arrivals[i]! >= MINUTE) i++;
    most = Math.max(most, j - i + 1);
  }
  return most;
}

describe('the minute pace on a simulated clock', () => {
  it('never lets a calendar minute or any 60 s hold more than the configured figure, from any starting moment', async () => {
    const seen: number[] = [];
    for (let k = 0; k < 24; k++) {
      // 24 starting moments across a minute (and across an hour of dates), 1–4 callers at once.
      const start = Date.UTC(2026, 0, 1 + k) + k * 2_500 + 17;
      const arrivals = await simulate(200, 650, start, 1 + (k % 4), 7 + k);
      expect(arrivals).toHaveLength(650);
      expect(busiestCalendarMinute(arrivals)).toBeLessThanOrEqual(200);
      expect(busiestSlidingMinute(arrivals)).toBeLessThanOrEqual(200);
      seen.push(busiestCalendarMinute(arrivals));
    }
    // And it is not timid: the busiest minutes come close to the figure.
    expect(Math.max(...seen)).toBeGreaterThanOrEqual(190);
  });

  it('holds every caller during a pause, then goes on at the pace', async () => {
    let now = 0;
    const pacer = new MinutePacer(600, () => now); // one per 101.7 ms
    await pacer.take();
    expect(pacer.due()).toBeCloseTo(101.67, 1);
    now = 1_000;
    expect(pacer.due()).toBe(0);
    pacer.pause(30_000);
    expect(pacer.due()).toBe(30_000);
  });

  it('lets a caller that gives up leave a pause at once, taking nothing', async () => {
    let now = 0;
    const pacer = new MinutePacer(
      600,
      () => now,
      () => new Promise(() => {}),
    ); // a timer that never fires
    pacer.pause(300_000); // a 429's five minutes
    const stop = new AbortController();
    const waiting = pacer.take(stop.signal);
    stop.abort();
    expect(await waiting).toBe(false);
    expect(await pacer.take(AbortSignal.abort())).toBe(false);
    now = 300_000;
    expect(await pacer.take(stop.signal)).toBe(false); // free now, but its caller is gone
    expect(await pacer.take()).toBe(true);
  });
});

describe('a gateway that counts per minute', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('answering 429 with its window spent mid-run: the client waits for the renewal and goes on', async () => {
    let refused = 0;
    server.handle((_req, res, hit) => {
      if (hit !== 3) return json(res, 200, { error: null, data: [] });
      refused++;
      // A per-minute gateway: nothing left in this window, which renews in 1 s.
      json(res, 429, { error: 'rate limit exceeded', data: null }, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1' });
    });
    const client = createClient({ baseUrl: server.baseUrl, apiKey: 'k', backoff: { initialMs: 1, maxMs: 10 } });
    for (let i = 0; i < 5; i++) await client.get('/monitoring/v2/events', { page: i + 1 });
    await client.close();
    expect(refused).toBe(1);
    expect(server.seen).toHaveLength(6); // the refused request was sent again, once
    // The retry waited for the renewal the gateway gave (1 s), not the 10 ms backoff.
    expect(server.seen[3]!.at - server.seen[2]!.at).toBeGreaterThanOrEqual(950);
  });

  it('a renewal further away than a few minutes is a spent allowance: the request fails without retrying', async () => {
    server.handle((_req, res) =>
      json(res, 429, { error: 'rate limit exceeded', data: null }, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '3600' }),
    );
    const client = createClient({ baseUrl: server.baseUrl, apiKey: 'k', backoff: { initialMs: 1, maxMs: 10 } });
    await expect(client.get('/monitoring/v2/events')).rejects.toMatchObject({ code: 'DS_QUOTA' });
    await client.close();
    expect(server.seen).toHaveLength(1);
  });
});

describe('requests that never reached the service', () => {
  it('a refused connection is not counted: not in the stats, not against the gate', async () => {
    const { createServer } = await import('node:net');
    // A port that was open a moment ago and is closed now: connections are refused.
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port: p } = s.address() as { port: number };
        s.close(() => resolve(p));
      });
    });
    const refunds: string[] = [];
    const gate = {
      admit: async () => {},
      spent: async (_f: unknown, e: Error) => e,
      settle: async () => {},
      refund: (family: string) => void refunds.push(family),
    };
    const client = createClient({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: 'k',
      retries: 2,
      backoff: { initialMs: 1, maxMs: 5 },
      gate,
    });
    const stream = { requests: 0 }; // a stream's count, through the client's counting view
    await expect(client.counting(stream).get('/v1/assets')).rejects.toMatchObject({ code: 'DS_NETWORK' });
    await client.close();
    expect(refunds).toEqual(['v1', 'v1', 'v1']); // three attempts, each given back
    expect(client.stats.requests).toBe(0);
    expect(stream.requests).toBe(0);
  });

  it('https:// to a plain HTTP server fails once, in one plain line, and is not retried or charged', async () => {
    const plain = await startServer();
    const refunds: string[] = [];
    const gate = {
      admit: async () => {},
      spent: async (_f: unknown, e: Error) => e,
      settle: async () => {},
      refund: (f: string) => void refunds.push(f),
    };
    const client = createClient({
      baseUrl: plain.baseUrl.replace('http:', 'https:'),
      apiKey: 'k',
      backoff: { initialMs: 1, maxMs: 5 },
      gate,
    });
    const error = (await client.get('/monitoring/v2/events').catch((e: unknown) => e)) as Error & { code?: string };
    await client.close();
    await plain.close();
    expect(error).toMatchObject({ code: 'DS_TLS' });
    expect(error.message).toMatch(/does not speak TLS there: is the base URL http:\/\/ rather than https:\/\/\?/);
    expect(error.message).not.toContain('\n');
    expect(refunds).toEqual(['monitoring']); // one attempt, given back
  });
});
