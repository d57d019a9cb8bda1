// /token-unlocks/v1/assets through `handle`: auth, envelope, full set regardless of paging, filters.
import { beforeAll, describe, expect, it } from 'vitest';
import { createMonitoringService, type MonitoringService, type TokenUnlockAsset } from '../../sandbox/monitoring/index.js';

const KEY = 'unlock-key';
const PATH = '/token-unlocks/v1/assets';
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
let s: MonitoringService;
let all: TokenUnlockAsset[];

function get(query = '', headers: Record<string, string> = { 'X-Service-API-Key': KEY }) {
  return s.handle({ path: PATH, query: new URLSearchParams(query), headers }) as { status: number; body: any };
}
const ids = (query: string): string[] => get(query).body.data.map((a: TokenUnlockAsset) => a.id);

beforeAll(() => {
  s = createMonitoringService({ seed: 3, scale: 1, profile: 'default', apiKey: KEY, now: () => new Date('2025-01-01T00:00:00Z') });
  all = get().body.data;
});

describe('token-unlock assets', () => {
  it('returns every covered asset (300 at scale 1) in {error:null, data} with the spec field types', () => {
    const { status, body } = get();
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['error', 'data']);
    expect(body.error).toBeNull();
    expect(all).toHaveLength(300);
    expect(new Set(all.map((a) => a.id)).size).toBe(300);
    for (const a of all) {
      expect(a.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(Number.isInteger(a.serialId)).toBe(true);
      for (const k of ['symbol', 'name', 'slug', 'category', 'sector'] as const) expect(typeof a[k]).toBe('string');
      expect(a.genesisDate).toMatch(RFC3339);
      expect(a.projectedEndDate).toMatch(RFC3339);
      expect(a.projectedEndDate > a.genesisDate).toBe(true);
      expect(a.tags === null || (Array.isArray(a.tags) && a.tags.every((t) => typeof t === 'string'))).toBe(true);
      expect(a.otherInfo === null || typeof a.otherInfo === 'string').toBe(true);
    }
    expect(all.some((a) => a.tags === null) && all.some((a) => a.otherInfo === null)).toBe(true);
  });

  it('accepts paging parameters and ignores them', () => {
    expect(ids('page=3&limit=5')).toEqual(all.map((a) => a.id));
  });

  it('filters by asset UUIDs only: slugs are accepted but match nothing', () => {
    const [a, b] = [all[4], all[17]];
    expect(ids(`assetIDs=${a.id},${b.id}`)).toEqual([a.id, b.id]);
    expect(ids(`assetIDs=${a.slug}`)).toEqual([]);
  });

  it('filters category, sectors and tags as OR within a parameter, AND across', () => {
    const cats = [...new Set(all.map((a) => a.category))].slice(0, 2);
    expect(ids(`category=${cats.join(',')}`)).toEqual(all.filter((a) => cats.includes(a.category)).map((a) => a.id));
    const sector = all[0].sector;
    expect(ids(`sectors=${encodeURIComponent(sector)}`)).toEqual(all.filter((a) => a.sector === sector).map((a) => a.id));
    const tags = ['Staking', 'DEX'];
    const tagged = all.filter((a) => (a.tags ?? []).some((t) => tags.includes(t))).map((a) => a.id);
    expect(tagged.length).toBeGreaterThan(0);
    expect(ids(`tags=${tags.join(',')}`)).toEqual(tagged);
    expect(ids(`tags=${tags.join(',')}&category=${cats[0]}`)).toEqual(
      all.filter((a) => (a.tags ?? []).some((t) => tags.includes(t)) && a.category === cats[0]).map((a) => a.id),
    );
  });

  it('rejects a missing or wrong key with {error:"invalid auth mechanism", data:null} (401)', () => {
    for (const headers of <Record<string, string>[]>[{}, { 'x-service-api-key': `${KEY}x` }, { 'x-api-key': KEY }]) {
      expect(get('', headers)).toEqual({ status: 401, body: { error: 'invalid auth mechanism', data: null } });
    }
  });

  it('is deterministic from the seed and differs across seeds', () => {
    const again = createMonitoringService({
      seed: 3,
      scale: 1,
      profile: 'default',
      apiKey: KEY,
      now: () => new Date('2025-01-01T00:00:00Z'),
    });
    const other = createMonitoringService({
      seed: 4,
      scale: 1,
      profile: 'default',
      apiKey: KEY,
      now: () => new Date('2025-01-01T00:00:00Z'),
    });
    expect(again.tokenUnlockAssets()).toEqual(all);
    expect(other.tokenUnlockAssets().map((a) => a.id)).not.toEqual(all.map((a) => a.id));
    return Promise.all([again.close(), other.close()]);
  });
});
