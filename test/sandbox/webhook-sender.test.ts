// The webhook sender over real HTTP to a node:http receiver on 127.0.0.1: retry schedule, retryable vs
// permanent answers, time-outs, network errors, close, idle. Back-off and time-outs run on a stepped
// clock the tests move, so every count and every instant is exact, however busy the machine.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SteppedClock, WebhookSender, retryTimings, type DeliveryLog } from '../../sandbox/webhooks/index.js';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
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
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
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

/** A sender on a clock of its own, at the spec's durations (1 s, 2 s, 4 s, ... ; 30 s, 60 s). */
function sender(extra: { logLimit?: number } = {}) {
  const clock = new SteppedClock();
  return { clock, sender: new WebhookSender({ clock, ...extra }) };
}

/** Attempt statuses (or 'error') per delivery, after the sender has settled. */
async function attempts(s: WebhookSender): Promise<Array<Array<number | 'error'>>> {
  await s.idle();
  return s.deliveries().map((l) => l.attempts.map((a) => a.status ?? 'error'));
}

/** Moves the clock through every retry until nothing waits for one. */
async function runOut(clock: SteppedClock, s: WebhookSender): Promise<DeliveryLog[]> {
  await s.idle();
  while (s.deliveries().some((l) => l.state === 'scheduled')) {
    clock.advanceBy(300_000);
    await s.idle();
  }
  return s.deliveries();
}

/** Resolves once the receiver has seen `n` requests on `path` (polls the real socket's arrival). */
async function arrived(path: string, n: number): Promise<void> {
  while (at(path).length < n) await new Promise((resolve) => setTimeout(resolve, 5));
}

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
  it('retries 429 and 5xx after 1 s, then 2 s of its clock, and stops at the first 2xx', async () => {
    const { clock, sender: s } = sender();
    s.enqueue({ id: 'd-flaky', viewId: 'v', url: `${base}/flaky`, body: '{"x":1}' });
    expect(await attempts(s)).toEqual([[429]]);
    clock.advanceBy(999);
    expect(await attempts(s)).toEqual([[429]]);
    clock.advanceBy(1);
    expect(await attempts(s)).toEqual([[429, 500]]);
    clock.advanceBy(1999);
    expect(await attempts(s)).toEqual([[429, 500]]);
    clock.advanceBy(1);
    expect(await attempts(s)).toEqual([[429, 500, 204]]);
    expect(s.deliveries()[0].state).toBe('delivered');
    clock.advanceBy(3_600_000);
    expect(await attempts(s)).toEqual([[429, 500, 204]]);
    expect(at('/flaky').every((r) => r.body === '{"x":1}')).toBe(true);
    await s.close();
  });

  it('gives up after 5 attempts of a retryable failure, waiting 1, 2, 4 and 8 s between them', async () => {
    const { clock, sender: s } = sender();
    s.enqueue({ id: 'd-down', viewId: 'v', url: `${base}/down`, body: '{}' });
    expect(await attempts(s)).toEqual([[503]]);
    for (const [wait, count] of [
      [1000, 2],
      [2000, 3],
      [4000, 4],
      [8000, 5],
    ]) {
      clock.advanceBy(wait - 1);
      expect((await attempts(s))[0], `${wait - 1} ms`).toHaveLength(count - 1);
      clock.advanceBy(1);
      expect((await attempts(s))[0], `${wait} ms`).toHaveLength(count);
    }
    const [log] = await runOut(clock, s);
    expect(log.state).toBe('exhausted');
    expect(log.attempts.map((a) => a.status)).toEqual([503, 503, 503, 503, 503]);
    expect(at('/down')).toHaveLength(5);
    await s.close();
  });

  it('does not retry other 4xx', async () => {
    const { clock, sender: s } = sender();
    s.enqueue({ id: 'd-bad', viewId: 'v', url: `${base}/bad`, body: '{}' });
    s.enqueue({ id: 'd-gone', viewId: 'v', url: `${base}/gone`, body: '{}' });
    const log = await runOut(clock, s);
    expect(log.map((l) => [l.state, l.attempts.length, l.attempts[0].status])).toEqual([
      ['failed', 1, 400],
      ['failed', 1, 410],
    ]);
    expect(at('/bad')).toHaveLength(1);
    await s.close();
  });

  it('an attempt times out after 30 s of its clock without an answer, and is retried', async () => {
    const { clock, sender: s } = sender();
    s.enqueue({ id: 'd-hang', viewId: 'v', url: `${base}/hang`, body: '{}' });
    for (let n = 1; n <= 5; n++) {
      await arrived('/hang', n);
      clock.advanceBy(29_999);
      expect(s.deliveries()[0].state, `attempt ${n} at 29.999 s`).toBe('in-flight');
      clock.advanceBy(1);
      await s.idle();
      expect(s.deliveries()[0].attempts[n - 1].error).toMatch(/transport time-out/);
      clock.advanceBy(retryTimings().delayAfter(n));
    }
    await s.idle();
    const [hang] = s.deliveries();
    expect(hang.state).toBe('exhausted');
    expect(hang.attempts.map((a) => a.status)).toEqual(Array(5).fill(undefined));
    await s.close();
  });

  it('retries network errors', async () => {
    const { clock, sender: s } = sender();
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    s.enqueue({ id: 'd-refused', viewId: 'v', url: `http://127.0.0.1:${deadPort}/`, body: '{}' });
    const [refused] = await runOut(clock, s);
    expect(refused.state).toBe('exhausted');
    expect(refused.attempts.map((a) => a.error)).toEqual(Array(5).fill(expect.stringMatching(/ECONNREFUSED/)));
    await s.close();
  });

  it('signs each attempt over "<t>.<raw body>" only when a secret is set, same id and body on every attempt', async () => {
    const { clock, sender: s } = sender();
    const body = JSON.stringify({ id: 'd-signed', note: 'ünïcode ✓' });
    const before = received.length;
    s.enqueue({ id: 'd-signed', viewId: 'v', url: `${base}/down`, secret: 's3cret', body });
    s.enqueue({ id: 'd-plain', viewId: 'v', url: `${base}/ok`, body: '{}' });
    await runOut(clock, s);
    const got = received.slice(before);
    const signed = got.filter((r) => r.body === body);
    expect(signed).toHaveLength(5);
    for (const r of signed) {
      const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(r.headers['x-webhook-signature']));
      expect(match).not.toBeNull();
      const expected = createHmac('sha256', 's3cret').update(`${match![1]}.${r.body}`).digest('hex');
      expect(match![2]).toBe(expected);
      // `t` is the receiver's kind of time (wall clock), whatever clock the retries follow.
      expect(Math.abs(Number(match![1]) - Date.now() / 1000)).toBeLessThan(300);
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['user-agent']).toBe('ServiceCNS/1.0');
    }
    const plain = got.filter((r) => r.path === '/ok');
    expect(plain).toHaveLength(1);
    expect(plain[0].headers['x-webhook-signature']).toBeUndefined();
    expect(s.deliveries().map((l) => l.signed)).toEqual([true, false]);
    await s.close();
  });

  it('idle() does not wait for a retry; close() cancels it and aborts an attempt in flight', async () => {
    const { clock, sender: s } = sender();
    s.enqueue({ id: 'd-closed', viewId: 'v', url: `${base}/down`, body: '{}' });
    await s.idle();
    expect(s.deliveries()[0]).toMatchObject({ state: 'scheduled', attempts: [{ status: 503 }] });
    const hanging = at('/hang').length;
    s.enqueue({ id: 'd-hang-closed', viewId: 'v', url: `${base}/hang`, body: '{}' });
    await arrived('/hang', hanging + 1);
    let idle = false;
    const waiting = s.idle().then(() => (idle = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(idle).toBe(false); // an attempt is in flight
    await s.close();
    await waiting;
    clock.advanceBy(3_600_000);
    const log = s.deliveries();
    expect(log.map((l) => [l.state, l.attempts.length])).toEqual([
      ['aborted', 1],
      ['aborted', 1],
    ]);
    expect(log[1].attempts[0].error).toMatch(/sender closed/);
  });
});

describe('delivery log', () => {
  it('keeps at most logLimit deliveries, dropping the oldest', async () => {
    const { sender: s } = sender({ logLimit: 3 });
    for (let i = 0; i < 5; i++) s.enqueue({ id: `d-${i}`, viewId: 'v', url: `${base}/ok`, body: '{}' });
    await s.idle();
    expect(s.deliveries().map((l) => [l.id, l.state])).toEqual([
      ['d-2', 'delivered'],
      ['d-3', 'delivered'],
      ['d-4', 'delivered'],
    ]);
    await s.close();
  });
});

describe('stepped clock', () => {
  it('runs due timers in time order when moved, never going back, and cancels', () => {
    const clock = new SteppedClock(1000);
    const fired: string[] = [];
    clock.after(300, () => fired.push('b'));
    clock.after(100, () => fired.push('a'));
    const cancel = clock.after(200, () => fired.push('cancelled'));
    clock.after(500, () => fired.push('c'));
    cancel();
    clock.advanceTo(1300);
    expect(fired).toEqual(['a', 'b']);
    clock.advanceTo(900);
    expect(clock.now()).toBe(1300);
    clock.after(0, () => fired.push('set at 1300'));
    clock.advanceBy(200);
    expect(fired).toEqual(['a', 'b', 'set at 1300', 'c']);
  });
});
