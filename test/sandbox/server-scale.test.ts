// @end-to-end
// Size: a sandbox serves deep and sorted pages; --profile real has the real service's sizes;
// sizes grow linearly with scale. That scale 50 starts without generating its /v1 data up front (its
// start time and the heap it adds) is a bar at scale: bench/sandbox-startup.ts checks it (bench/RESULTS.md).
import { describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

async function json(sb: Sandbox, path: string): Promise<any> {
  const res = await fetch(sb.url + path, { headers: { 'x-api-key': sb.apiKey } });
  expect(res.status).toBe(200);
  return res.json();
}

/** Number of records of a list, from the first empty page found by bisection. */
async function count(sb: Sandbox, path: string, limit: number): Promise<number> {
  let lo = 1;
  let hi = 1;
  while ((await json(sb, `${path}${path.includes('?') ? '&' : '?'}limit=${limit}&page=${hi}`)).data.length === limit) {
    lo = hi;
    hi *= 2;
  }
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    const n = (await json(sb, `${path}${path.includes('?') ? '&' : '?'}limit=${limit}&page=${mid}`)).data.length;
    if (n === limit) lo = mid;
    else hi = mid;
  }
  const last = (await json(sb, `${path}${path.includes('?') ? '&' : '?'}limit=${limit}&page=${hi}`)).data.length;
  return (hi - 1) * limit + last;
}

describe('scale', () => {
  it('serves deep, sorted pages, and the last page of a list of one', async () => {
    // Scale 1: 1,581 tokens (the default asset class), 200 chains. Paging, sorting and the end of a list do not depend on the size.
    const sb = await startSandbox({ start: PINNED_START, scale: 1 });
    try {
      const page = await json(sb, '/v1/assets?limit=100&page=15');
      expect(page.data).toHaveLength(100);
      const top = await json(sb, '/v1/assets?limit=3&order_by=market_cap.rank&expand=market_cap');
      expect(top.data.map((a: any) => a.market_cap.rank)).toEqual([...top.data.map((a: any) => a.market_cap.rank)].sort((a, b) => a - b));
      // The last of 200 chains alone on page 200 of one, and none after.
      expect([
        (await json(sb, '/v1/chains?limit=1&page=200')).data.length,
        (await json(sb, '/v1/chains?limit=1&page=201')).data.length,
      ]).toEqual([1, 0]);
    } finally {
      await sb.close();
    }
  });

  it('sizes grow linearly with scale', async () => {
    // 0.2 and 0.4: every size of scale 1 times 0.2 is whole (as at 1 and 2), at a fifth of their records.
    const [a, b] = await Promise.all([
      startSandbox({ start: PINNED_START, scale: 0.2 }),
      startSandbox({ start: PINNED_START, scale: 0.4 }),
    ]);
    try {
      for (const name of ['projects', 'glossary', 'sec-filings', 'charts', 'metrics', 'transparency', 'market-stats']) {
        expect(b.records(name).length, name).toBe(2 * a.records(name).length);
      }
      expect(Math.abs(b.records('assets').length - 2 * a.records('assets').length)).toBeLessThanOrEqual(2);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('--profile real has about the real sizes', async () => {
    const sb = await startSandbox({ start: PINNED_START, profile: 'real' });
    try {
      expect(await count(sb, '/v1/chains', 10000)).toBe(26);
      expect(await count(sb, '/v1/projects', 10000)).toBe(1100);
      expect(await count(sb, '/v1/metrics', 1000)).toBe(400);
      expect(await count(sb, '/v1/charts', 100)).toBe(3200);
      const hourly = await count(sb, '/v1/market-stats?group_by=hour', 100);
      expect(hourly).toBeGreaterThan(249_000);
      expect(hourly).toBeLessThan(251_000);
      let assets = 0;
      for (const c of ['token', 'equity', 'tokenizedStock']) assets += await count(sb, `/v1/assets?asset_class=${c}`, 100);
      expect(assets).toBe(133_000);
    } finally {
      await sb.close();
    }
  });
});
