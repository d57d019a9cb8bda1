// What counts against which quota (market stats is open, charts are /v1, rejected keys and refusals
// count nowhere), chaos 429s told apart from a spent quota, the /_sandbox/quota control endpoints,
// the spec parser and the exceeded watchdog. The --quota flag: sandbox-cli.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { parseQuota, startSandbox, type Sandbox } from '../../sandbox/index.js';
import { QuotaMeter } from '../../sandbox/quota/index.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

async function get(s: Sandbox, path: string, key = s.apiKey) {
  const header = path.startsWith('/v1') ? 'x-api-key' : 'x-service-api-key';
  const res = await fetch(s.url + path, { headers: { [header]: key } });
  await res.arrayBuffer();
  return { status: res.status, remaining: res.headers.get('x-ratelimit-remaining'), retryAfter: res.headers.get('retry-after') };
}

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
