// The `/v1` catalog lists most token-unlock and monitoring assets (one shared universe), under the same
// name and symbol, mostly the same slug, each service with its own sector vocabulary; some partner
// assets are not on `/v1`, and some of those share a ticker with an unrelated stock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

interface V1Asset {
  id: number;
  code: string;
  title: string;
  slug: string;
  asset_class: string;
  sector: string | null;
}

describe('partner assets on /v1', () => {
  let sb: Sandbox;
  let v1: Map<number, V1Asset>;
  beforeAll(async () => {
    sb = await startSandbox({ start: PINNED_START, scale: 0.5, seed: 4, control: true });
    v1 = new Map((sb.records('assets') as V1Asset[]).map((a) => [a.id, a]));
  });
  afterAll(async () => sb?.close());

  it('token-unlock assets are /v1 assets by name or symbol, most by slug too, with sectors translated', () => {
    const links = new Map(sb.assetLinks().map((l) => [l.partnerId, l.v1AssetId]));
    const unlocks = sb.monitoring.tokenUnlockAssets();
    const listed = unlocks.filter((u) => links.get(u.id) != null);
    expect(listed.length / unlocks.length).toBeGreaterThan(0.7);
    expect(listed.length).toBeLessThan(unlocks.length);
    let sameSlug = 0;
    for (const u of listed) {
      const a = v1.get(links.get(u.id)!)!;
      expect(a.asset_class).toBe('token');
      expect(a.title === u.name || a.code === u.symbol, `${u.name} ${u.symbol} ~ ${a.title} ${a.code}`).toBe(true);
      if (a.slug === u.slug) sameSlug++;
    }
    expect(sameSlug / listed.length).toBeGreaterThan(0.5);
    expect(sameSlug).toBeLessThan(listed.length);
    // Each service its own vocabulary: token unlocks' `sector` is monitoring's subsector.
    const sectorOf = new Map(listed.map((u) => [u.sector, v1.get(links.get(u.id)!)!.sector]));
    expect(sectorOf.get('Stablecoins')).toBe('Stablecoins');
    expect(sectorOf.get('Decentralized Exchanges')).toBe('Exchanges');
    expect(sectorOf.get('Layer 1')).toBe('Smart Contract Platforms');
  });

  it('serves a partner asset under its plain slug, and Bitcoin is Bitcoin everywhere', async () => {
    const res = await fetch(`${sb.url}/v1/assets/bitcoin?expand=market_cap`, { headers: { 'x-api-key': sb.apiKey } });
    const btc = (await res.json()) as V1Asset & { market_cap: { rank: number } };
    expect([btc.title, btc.code, btc.market_cap.rank]).toEqual(['Bitcoin', 'BTC', 1]);
    expect(sb.monitoring.assets().find((a) => a.slug === 'bitcoin')?.symbol).toBe('BTC');
  });

  it('GET /_sandbox/asset-links serves the same truth, behind the API key', async () => {
    const res = await fetch(`${sb.url}/_sandbox/asset-links`, { headers: { 'x-api-key': sb.apiKey } });
    expect(await res.json()).toEqual(sb.assetLinks());
    expect((await fetch(`${sb.url}/_sandbox/asset-links`)).status).toBe(401);
  });

  it('some partner assets not on /v1 share a ticker with an unrelated /v1 stock (a false symbol match)', () => {
    const links = new Map(sb.assetLinks().map((l) => [l.partnerId, l.v1AssetId]));
    const codes = new Map([...v1.values()].map((a) => [a.code, a]));
    const decoys = sb.monitoring.assets().filter((m) => links.get(m.id) === null && codes.get(m.symbol)?.asset_class === 'equity');
    expect(decoys.length).toBeGreaterThan(0);
  });
});
