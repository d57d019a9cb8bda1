// market_cap.rank follows market cap as it moves, across asset classes: the live ranked assets hold
// ranks 1..N in market-cap order, an advance that changes an asset's market cap changes its rank, and
// the well-known assets lead (Bitcoin first). Deterministic for a seed and a start.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

interface Asset {
  id: number;
  code: string;
  asset_class: string;
  market_cap: { rank: number | null; usd: number | null };
}

const ranked = (sb: Sandbox) => (sb.records('assets') as Asset[]).filter((a) => a.market_cap.rank !== null);
const rankById = (sb: Sandbox) => new Map(ranked(sb).map((a) => [a.id, a.market_cap.rank]));

describe('market_cap.rank', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ start: PINNED_START, scale: 0.5, seed: 3 });
  });
  afterAll(async () => sb?.close());

  it('ranks every live ranked asset 1..N across classes, in market-cap order', () => {
    const assets = ranked(sb);
    expect(assets.length).toBeGreaterThan(0.95 * sb.records('assets').length);
    expect(assets.map((a) => a.market_cap.rank).sort((x, y) => x! - y!)).toEqual(assets.map((_, k) => k + 1));
    const byRank = [...assets].sort((x, y) => x.market_cap.rank! - y.market_cap.rank!).filter((a) => a.market_cap.usd !== null);
    for (let k = 1; k < byRank.length; k++) expect(byRank[k].market_cap.usd!).toBeLessThanOrEqual(byRank[k - 1].market_cap.usd!);
    expect(new Set(byRank.slice(0, 50).map((a) => a.asset_class)).size).toBeGreaterThan(1);
    expect(byRank.slice(0, 3).map((a) => a.code)).toEqual(['BTC', 'ETH', 'USDT']);
  });

  it('changes with market cap: most changed assets change rank, and removals close the gaps', async () => {
    for (let step = 0; step < 3; step++) {
      const before = rankById(sb);
      const report = await sb.advance({ seconds: 86_400, updateFraction: 0.05, addFraction: 0.01, removeFraction: 0.01 });
      const after = rankById(sb);
      const changed = report.resources.assets.updated.filter((id) => before.has(id as number) && after.has(id as number));
      const moved = changed.filter((id) => before.get(id as number) !== after.get(id as number));
      expect(changed.length).toBeGreaterThan(10);
      expect(moved.length / changed.length).toBeGreaterThan(0.6);
      expect([...after.values()].sort((x, y) => x! - y!)).toEqual([...after.keys()].map((_, k) => k + 1));
    }
  });

  it('is the same for the same seed and start, after the same advances', async () => {
    const [a, b] = await Promise.all([1, 2].map(() => startSandbox({ start: PINNED_START, scale: 0.2, seed: 8 })));
    try {
      await Promise.all([a, b].map((s) => s.advance({ seconds: 3600, updateFraction: 0.1 })));
      expect([...rankById(b)]).toEqual([...rankById(a)]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
