// The webhook sender over real HTTP to a node:http receiver on 127.0.0.1: retry schedule (scaled by
// timeFactor), retryable vs permanent answers, time-outs, network errors, close, idle.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookSender, retryTimings } from '../../sandbox/webhooks/index.js';

const TIME_FACTOR = 0.01; // 1 s -> 10 ms; transport time-out 300 ms, attempt time-out 600 ms

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

let server: Server;
let base: string;
const received: Received[] = [];
const calls = new Map<string, number>();
// Per path: the status to answer on the n-th call (0-based); 'hang' never answers.
const scripts: Record<string, (n: number) => number | 'hang'> = {
  '/ok': () => 200,
  '/flaky': (n) => [429, 500, 204][n] ?? 200,
  '/down': () => 503,
  '/bad': () => 400,
  '/gone': () => 410,
  '/hang': () => 'hang',
};

beforeAll(async () => {
  server = createServer((req, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const n = calls.get(path) ?? 0;
      calls.set(path, n + 1);
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const answer = (scripts[path] ?? (() => 404))(n);
      if (answer === 'hang') return;
      res.writeHead(answer).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const at = (path: string) => received.filter((r) => r.path === path);
const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]);

describe('retry policy', () => {
  it('follows the spec: 1 s initial, factor 2, capped at 5 min, scaled by timeFactor', () => {
    const spec = retryTimings();
    expect([1, 2, 3, 4].map(spec.delayAfter)).toEqual([1000, 2000, 4000, 8000]);
    expect(spec.delayAfter(12)).toBe(300_000);
    expect(spec.transportTimeoutMs).toBe(30_000);
    expect(spec.attemptTimeoutMs).toBe(60_000);
    expect(retryTimings(0.001).delayAfter(2)).toBe(2);
  });
});

describe('webhook sender over HTTP', () => {
  it('retries 429 and 5xx with growing back-off and stops at the first 2xx', async () => {
    const sender = new WebhookSender({ timeFactor: TIME_FACTOR });
    sender.enqueue({ id: 'd-flaky', viewId: 'v', url: `${base}/flaky`, body: '{"x":1}' });
    await sender.idle();
    const [log] = sender.deliveries();
    expect(log.state).toBe('delivered');
    expect(log.attempts.map((a) => a.status)).toEqual([429, 500, 204]);
    const g = gaps(at('/flaky').map((r) => r.at));
    expect(g[0]).toBeGreaterThanOrEqual(9);
    expect(g[1]).toBeGreaterThanOrEqual(19);
    expect(at('/flaky').every((r) => r.body === '{"x":1}')).toBe(true);
    await sender.close();
  });

  it('gives up after 5 attempts of a retryable failure', async () => {
    const sender = new WebhookSender({ timeFactor: TIME_FACTOR });
    sender.enqueue({ id: 'd-down', viewId: 'v', url: `${base}/down`, body: '{}' });
    await sender.idle();
    const [log] = sender.deliveries();
    expect(log.state).toBe('exhausted');
    expect(log.attempts.map((a) => a.status)).toEqual([503, 503, 503, 503, 503]);
    const g = gaps(at('/down').map((r) => r.at));
    expect(g).toHaveLength(4);
    [10, 20, 40, 80].forEach((min, i) => expect(g[i]).toBeGreaterThanOrEqual(min - 1));
    await sender.close();
  });

  it('does not retry other 4xx', async () => {
    const sender = new WebhookSender({ timeFactor: TIME_FACTOR });
    sender.enqueue({ id: 'd-bad', viewId: 'v', url: `${base}/bad`, body: '{}' });
    sender.enqueue({ id: 'd-gone', viewId: 'v', url: `${base}/gone`, body: '{}' });
    await sender.idle();
    expect(sender.deliveries().map((l) => [l.state, l.attempts.length, l.attempts[0].status])).toEqual([['failed', 1, 400], ['failed', 1, 410]]);
    expect(at('/bad')).toHaveLength(1);
    await sender.close();
  });

  it('retries time-outs and network errors', async () => {
    const sender = new WebhookSender({ timeFactor: TIME_FACTOR });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    sender.enqueue({ id: 'd-hang', viewId: 'v', url: `${base}/hang`, body: '{}' });
    sender.enqueue({ id: 'd-refused', viewId: 'v', url: `http://127.0.0.1:${deadPort}/`, body: '{}' });
    const started = Date.now();
    await sender.idle();
    const [hang, refused] = sender.deliveries();
    expect(hang.state).toBe('exhausted');
    expect(hang.attempts).toHaveLength(5);
    expect(hang.attempts.every((a) => a.status === undefined && typeof a.error === 'string')).toBe(true);
    // Each attempt waited for the (scaled) transport time-out, not longer than the attempt time-out.
    expect(hang.attempts.every((a) => a.durationMs >= 250 && a.durationMs < 1500)).toBe(true);
    expect(refused.state).toBe('exhausted');
    expect(refused.attempts.map((a) => a.error)).toEqual(Array(5).fill(expect.stringMatching(/ECONNREFUSED/)));
    expect(Date.now() - started).toBeLessThan(10_000);
    await sender.close();
  });

  it('signs each attempt over "<t>.<raw body>" only when a secret is set, same id and body on every attempt', async () => {
    const sender = new WebhookSender({ timeFactor: TIME_FACTOR });
    const body = JSON.stringify({ id: 'd-signed', note: 'ünïcode ✓' });
    const before = received.length;
    sender.enqueue({ id: 'd-signed', viewId: 'v', url: `${base}/down`, secret: 's3cret', body });
    sender.enqueue({ id: 'd-plain', viewId: 'v', url: `${base}/ok`, body: '{}' });
    await sender.idle();
    const got = received.slice(before);
    const signed = got.filter((r) => r.body === body);
    expect(signed).toHaveLength(5);
    for (const r of signed) {
      const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(r.headers['x-webhook-signature']));
      expect(match).not.toBeNull();
      const expected = createHmac('sha256', 's3cret').update(`${match![1]}.${r.body}`).digest('hex');
      expect(match![2]).toBe(expected);
      expect(Math.abs(Number(match![1]) - Date.now() / 1000)).toBeLessThan(300);
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['user-agent']).toBe('ServiceCNS/1.0');
    }
    const plain = got.filter((r) => r.path === '/ok');
    expect(plain).toHaveLength(1);
    expect(plain[0].headers['x-webhook-signature']).toBeUndefined();
    expect(sender.deliveries().map((l) => l.signed)).toEqual([true, false]);
    await sender.close();
  });

  it('close() cancels scheduled retries and idle() then resolves', async () => {
    const sender = new WebhookSender({ timeFactor: 1 }); // 1 s before the second attempt
    sender.enqueue({ id: 'd-closed', viewId: 'v', url: `${base}/down`, body: '{}' });
    const deadline = Date.now() + 5000;
    while (sender.deliveries()[0].attempts.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    let idle = false;
    const waiting = sender.idle().then(() => (idle = true));
    expect(idle).toBe(false);
    await sender.close();
    await waiting;
    const [log] = sender.deliveries();
    expect(log.state).toBe('aborted');
    expect(log.attempts).toHaveLength(1);
  });
});

describe('delivery log', () => {
  it('keeps at most logLimit deliveries, dropping the oldest', async () => {
    const sender = new WebhookSender({ timeFactor: TIME_FACTOR, logLimit: 3 });
    for (let i = 0; i < 5; i++) sender.enqueue({ id: `d-${i}`, viewId: 'v', url: `${base}/ok`, body: '{}' });
    await sender.idle();
    expect(sender.deliveries().map((l) => [l.id, l.state])).toEqual([['d-2', 'delivered'], ['d-3', 'delivered'], ['d-4', 'delivered']]);
    await sender.close();
  });
});
