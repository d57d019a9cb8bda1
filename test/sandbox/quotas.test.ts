// The sandbox's quotas. Per minute (on wall time, here injected), day and calendar month (on the sandbox
// clock): the allowance is served with X-RateLimit-* headers of the tightest limit, the next request is a
// 429 that says when the allowance renews, and moving the clock past the renewal serves again. What counts
// against which quota (market stats is open, charts are /v1, rejected keys and refusals count nowhere),
// chaos 429s told apart from a spent quota, the /_sandbox/quota control endpoints, the spec parser and the
// exceeded watchdog. The --quota flag: sandbox-cli.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { parseQuota, startSandbox, type Sandbox } from '../../sandbox/index.js';
import { QuotaMeter } from '../../sandbox/quota/index.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

const unix = (iso: string) => Date.parse(iso) / 1000;

/** A body as JSON where it is JSON (a 404 or /health may not be), else its text. */
function parsed(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function get(s: Sandbox, path: string, key = s.apiKey) {
  const header = path.startsWith('/v1') ? 'x-api-key' : 'x-service-api-key';
  const res = await fetch(s.url + path, { headers: { [header]: key } });
  const h = (name: string) => res.headers.get(name);
  return {
    status: res.status,
    body: parsed(await res.text()),
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

describe('families', () => {
  it('counts keyed /v1 paths (charts included) as v1, market stats as open, and each partner service apart', async () => {
    sb = await startSandbox({ start: PINNED_START, scale: 0.1, quota: 'v1=100/day' });
    const charts = sb.records('charts') as Array<{ id: number }>;
    await get(sb, '/v1/assets?limit=1');
    expect((await get(sb, `/v1/charts/${charts[0].id}/data?limit=1`)).status).toBe(200);
    await get(sb, '/v1/market-stats?limit=1');
    await get(sb, '/v1/market-stats?limit=1');
    await get(sb, '/monitoring/v2/categories');
    await get(sb, '/token-unlocks/v1/assets');
    // Not counted: a rejected key, an unknown path, another method, /health.
    expect((await get(sb, '/v1/assets?limit=1', 'wrong')).status).toBe(401);
    expect((await get(sb, '/monitoring/v2/categories', 'wrong')).status).toBe(401);
    expect((await get(sb, '/v1/nothing-here')).status).toBe(404);
    expect((await fetch(`${sb.url}/v1/assets`, { method: 'POST', headers: { 'x-api-key': sb.apiKey } })).status).toBe(404);
    await get(sb, '/health');
    const f = sb.quota().families;
    expect([f.v1.requests, f.open.requests, f.monitoring.requests, f.tokenUnlocks.requests]).toEqual([2, 2, 1, 1]);
    expect(f.v1.used).toEqual({ minute: 2, day: 2, month: 2 });
  });

  it('a family without a limit carries no X-RateLimit headers', async () => {
    sb = await startSandbox({ start: PINNED_START, scale: 0.1, quota: 'v1=100/day' });
    const res = await fetch(`${sb.url}/v1/market-stats?limit=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
  });
});

describe('refusals', () => {
  it('are counted as refused, never as used, and leave the other families alone', async () => {
    // The minute counts on wall time (as a gateway's); held still here, so a busy machine's slow requests
    // cannot cross into the next minute and be served again.
    sb = await startSandbox({ start: PINNED_START, scale: 0.1, quota: 'monitoring=1/min', wallClock: () => 1_700_000_000 });
    await get(sb, '/monitoring/v2/categories');
    for (let i = 0; i < 5; i++) expect((await get(sb, '/monitoring/v2/categories')).status).toBe(429);
    expect((await get(sb, '/token-unlocks/v1/assets')).status).toBe(200);
    expect(sb.quota().families.monitoring).toMatchObject({ requests: 1, refused: 5, exceeded: false, used: { minute: 1 } });
    expect(sb.quota()).toMatchObject({ refused: 5, exceeded: false });
  });

  it('a chaos 429 keeps a short Retry-After and no Remaining: 0, and counts as used', async () => {
    sb = await startSandbox({ start: PINNED_START, scale: 0.1, quota: 'v1=2/day', chaos: { rate429: 1, retryAfterSeconds: 2 } });
    const chaos = await get(sb, '/v1/chains?limit=1');
    expect([chaos.status, chaos.retryAfter, chaos.remaining]).toEqual([429, '2', null]);
    sb.setChaos(null);
    expect((await get(sb, '/v1/chains?limit=1')).remaining).toBe('0');
    const quota = await get(sb, '/v1/chains?limit=1');
    expect([quota.status, quota.retryAfter, quota.remaining]).toEqual([429, String(12 * 3600), '0']);
  });

  it('the watchdog flags a request served beyond a limit', () => {
    let t = 0;
    const meter = new QuotaMeter(
      () => t,
      parseQuota('v1=1/min'),
      () => t,
    );
    expect(meter.admit('v1')).toEqual({ admitted: true });
    meter.record('v1');
    expect(meter.report().exceeded).toBe(false);
    meter.record('v1'); // served without admission: the bug the flag exists to catch
    expect(meter.report()).toMatchObject({ exceeded: true, families: { v1: { exceeded: true } } });
    t = 60;
    expect(meter.admit('v1')).toEqual({ admitted: true });
  });
});

describe('the quota spec', () => {
  it('parses families, periods and several limits per family', () => {
    expect(parseQuota('v1=2500/month, v1=100/day,monitoring=200/min,token-unlocks=5/minute,open=0/day')).toEqual([
      { family: 'v1', limit: 2500, period: 'month' },
      { family: 'v1', limit: 100, period: 'day' },
      { family: 'monitoring', limit: 200, period: 'minute' },
      { family: 'tokenUnlocks', limit: 5, period: 'minute' },
      { family: 'open', limit: 0, period: 'day' },
    ]);
  });

  it.each([
    'v1',
    'v1=2500',
    'v2=1/day',
    'v1=1/week',
    'v1=-1/day',
    'v1=1.5/day',
    'v1=1/day,v1=2/day',
  ])('rejects "%s" in one line', (spec) => {
    expect(() => parseQuota(spec)).toThrow(/^(bad quota|quota for v1 per day given twice)[^\n]*$/);
  });
});

describe('control endpoints', () => {
  it('GET reports, PUT sets (keeping counts), DELETE clears; bad input is a 400', async () => {
    sb = await startSandbox({ start: PINNED_START, scale: 0.1, control: true });
    const s = sb;
    const call = async (method: string, body?: unknown) => {
      const res = await fetch(`${s.url}/_sandbox/quota`, {
        method,
        headers: { 'x-api-key': s.apiKey, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    await get(s, '/v1/chains?limit=1');
    expect((await call('GET')).body).toMatchObject({
      quota: null,
      refused: 0,
      exceeded: false,
      families: { v1: { limits: [], requests: 1 } },
    });
    const set = await call('PUT', { spec: 'v1=2/day' });
    expect(set.body.families.v1.limits).toEqual([{ period: 'day', limit: 2, used: 1, remaining: 1, resetsAt: '2025-06-02T00:00:00.000Z' }]);
    await get(s, '/v1/chains?limit=1');
    expect((await get(s, '/v1/chains?limit=1')).status).toBe(429);
    expect((await call('PUT', { limits: [{ family: 'v1', limit: 5, period: 'day' }] })).body).toMatchObject({
      quota: 'v1=5/day',
      refused: 1,
    });
    expect((await get(s, '/v1/chains?limit=1')).remaining).toBe('2');
    expect((await call('PUT', { spec: 'v1=lots' })).status).toBe(400);
    expect((await call('PUT', { limits: [{ family: 'v1', limit: -1, period: 'day' }] })).status).toBe(400);
    expect((await call('PUT', {})).status).toBe(400);
    expect((await call('GET')).body.quota).toBe('v1=5/day');
    const cleared = await call('DELETE');
    expect(cleared.body).toMatchObject({ quota: null, refused: 0, families: { v1: { limits: [], requests: 0, used: { day: 0 } } } });
    expect((await get(s, '/v1/chains?limit=1')).remaining).toBeNull();
  });
});
