// Quotas per minute (on wall time, here injected), day and calendar month (on the sandbox clock): the allowance is served
// with X-RateLimit-* headers of the tightest limit, the next request is a 429 that says when the
// allowance renews, and moving the clock past the renewal serves again.
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

const unix = (iso: string) => Date.parse(iso) / 1000;

async function get(s: Sandbox, path: string) {
  const header = path.startsWith('/v1') ? 'x-api-key' : 'x-service-api-key';
  const res = await fetch(s.url + path, { headers: { [header]: s.apiKey } });
  const h = (name: string) => res.headers.get(name);
  return {
    status: res.status,
    body: (await res.json()) as any,
    limit: h('x-ratelimit-limit'),
    remaining: h('x-ratelimit-remaining'),
    reset: h('x-ratelimit-reset'),
    retryAfter: h('retry-after'),
  };
}

describe('per minute', () => {
  it('serves the allowance, refuses the next request until the minute renews, then serves again', async () => {
    // The minute counts on wall time, as a gateway's: injected here, moved with the sandbox's clock.
    let wall = unix('2025-06-01T12:00:15Z');
    sb = await startSandbox({ scale: 0.1, quota: 'monitoring=3/min', start: new Date('2025-06-01T12:00:15Z'), wallClock: () => wall });
    const reset = String(unix('2025-06-01T12:01:00Z'));
    for (const left of ['2', '1', '0']) {
      const r = await get(sb, '/monitoring/v2/categories');
      expect(r.status).toBe(200);
      expect([r.limit, r.remaining, r.reset]).toEqual(['3', left, reset]);
    }
    const refused = await get(sb, '/monitoring/v2/events?limit=1');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: expect.stringMatching(/^Per-minute request quota exceeded \(3 requests a minute\)/),
      data: null,
    });
    expect([refused.limit, refused.remaining, refused.reset, refused.retryAfter]).toEqual(['3', '0', reset, '45']);

    wall += 44;
    expect((await get(sb, '/monitoring/v2/categories')).retryAfter).toBe('1'); // still 12:00:59
    wall += 1;
    const renewed = await get(sb, '/monitoring/v2/categories');
    expect([renewed.status, renewed.remaining]).toEqual([200, '2']);
    expect(sb.quota().families.monitoring).toMatchObject({
      requests: 4,
      refused: 2,
      exceeded: false,
      used: { minute: 1, day: 4, month: 4 },
    });
  });
});

describe('per day', () => {
  it('renews at midnight UTC; token unlocks answer in their own error shape', async () => {
    sb = await startSandbox({ start: PINNED_START, scale: 0.1, quota: 'tokenUnlocks=2/day' }); // clock 2025-06-01T12:00:00Z
    expect((await get(sb, '/token-unlocks/v1/assets')).status).toBe(200);
    expect((await get(sb, '/token-unlocks/v1/assets')).remaining).toBe('0');
    const refused = await get(sb, '/token-unlocks/v1/assets');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: expect.stringMatching(/^Daily request quota exceeded .*renews at 2025-06-02T00:00:00.000Z$/),
      data: null,
    });
    expect(refused.retryAfter).toBe(String(12 * 3600));
    expect(refused.reset).toBe(String(unix('2025-06-02T00:00:00Z')));
    await sb.advance({ seconds: 12 * 3600 - 1 });
    expect((await get(sb, '/token-unlocks/v1/assets')).status).toBe(429);
    await sb.advance({ seconds: 1 });
    expect((await get(sb, '/token-unlocks/v1/assets')).status).toBe(200);
  });
});

describe('per calendar month', () => {
  it('renews on the first of the next month (UTC), not 30 days later', async () => {
    sb = await startSandbox({ scale: 0.1, quota: 'v1=2/month', start: new Date('2025-01-31T23:00:00Z') });
    expect((await get(sb, '/v1/chains?limit=1')).status).toBe(200);
    expect((await get(sb, '/v1/chains?limit=1')).status).toBe(200);
    const refused = await get(sb, '/v1/chains?limit=1');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      statusCode: 429,
      message: expect.stringMatching(/^Monthly request quota exceeded \(2 requests a month\); it renews at 2025-02-01T00:00:00.000Z$/),
    });
    expect([refused.retryAfter, refused.remaining, refused.limit]).toEqual(['3600', '0', '2']);
    await sb.advance({ seconds: 3600 });
    expect((await get(sb, '/v1/chains?limit=1')).status).toBe(200);
    expect((await get(sb, '/v1/chains?limit=1')).status).toBe(200);
    // February has 28 days: spent until 2025-03-01.
    const february = await get(sb, '/v1/chains?limit=1');
    expect(february.retryAfter).toBe(String(28 * 86_400));
    await sb.advance({ seconds: 28 * 86_400 });
    expect((await get(sb, '/v1/chains?limit=1')).status).toBe(200);
    expect(sb.quota().families.v1).toMatchObject({ requests: 5, refused: 2, exceeded: false });
  });
});

describe('several limits on one family', () => {
  it('headers name the tightest limit; a refusal waits for every spent window to renew', async () => {
    const s = await startSandbox({
      start: PINNED_START, // 2025-06-01T12:00:00Z
      scale: 0.1,
      quota: 'v1=3/month,v1=2/day,v1=100/min',
      wallClock: () => Date.parse(s.now().toISOString()) / 1000, // the minute follows the sandbox clock here
    });
    sb = s;
    const first = await get(sb, '/v1/chains?limit=1');
    expect([first.limit, first.remaining, first.reset]).toEqual(['2', '1', String(unix('2025-06-02T00:00:00Z'))]);
    await get(sb, '/v1/chains?limit=1');
    const day = await get(sb, '/v1/chains?limit=1');
    expect(day.body.message).toMatch(/^Daily request quota exceeded/);
    await sb.advance({ seconds: 12 * 3600 });
    const last = await get(sb, '/v1/chains?limit=1');
    // Month and day both leave 0 (day 1 of 2 used, month 3 of 3): the month renews later.
    expect([last.status, last.limit, last.remaining, last.reset]).toEqual([200, '3', '0', String(unix('2025-07-01T00:00:00Z'))]);
    const month = await get(sb, '/v1/chains?limit=1');
    expect(month.body.message).toMatch(/^Monthly request quota exceeded/);
    expect(month.retryAfter).toBe(String(unix('2025-07-01T00:00:00Z') - unix('2025-06-02T00:00:00Z')));
    const report = sb.quota();
    expect(report.families.v1.limits).toEqual([
      { period: 'month', limit: 3, used: 3, remaining: 0, resetsAt: '2025-07-01T00:00:00.000Z' },
      { period: 'day', limit: 2, used: 1, remaining: 1, resetsAt: '2025-06-03T00:00:00.000Z' },
      { period: 'minute', limit: 100, used: 1, remaining: 99, resetsAt: '2025-06-02T00:01:00.000Z' },
    ]);
    expect(report).toMatchObject({ quota: 'v1=3/month,v1=2/day,v1=100/min', refused: 2, exceeded: false });
  });
});
