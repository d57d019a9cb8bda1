// Monitoring views, view events and the category taxonomy, through `handle`.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createMonitoringService,
  type MonitoringEvent,
  type MonitoringService,
  type MonitoringView,
} from '../../sandbox/monitoring/index.js';

const KEY = 'views-key';
const NOW = new Date('2025-03-10T12:00:00Z');
const LEVELS = ['not-important', 'low', 'medium', 'high'];
let s: MonitoringService;
let all: MonitoringEvent[];

function get(path: string, query = '') {
  return s.handle({ path, query: new URLSearchParams(query), headers: { 'x-service-api-key': KEY } }) as { status: number; body: any };
}

function viewEventIds(view: string, query = ''): string[] {
  const out: string[] = [];
  for (let page = 1; ; page++) {
    const { status, body } = get(`/monitoring/v2/monitoring-views/${view}/events`, `${query}&limit=100&page=${page}`);
    expect(status).toBe(200);
    out.push(...body.data.map((e: MonitoringEvent) => e.id));
    if (page >= body.metadata.totalPages) return out;
  }
}

/** The view's predicates, restated from the spec's field meanings, over API records. */
function matches(v: MonitoringView, e: MonitoringEvent): boolean {
  const ids = new Set(v.assetIds);
  if (ids.size > 0 && !e.assets.some((a) => ids.has(a.id))) return false;
  if (v.intelCategories.length > 0 && !e.intelCategories.some((c) => v.intelCategories.includes(c))) return false;
  if (v.intelSubcategories.length > 0 && !e.intelSubcategories.some((c) => v.intelSubcategories.includes(c))) return false;
  if (v.minimumImportance !== '' && LEVELS.indexOf(e.importance) < LEVELS.indexOf(v.minimumImportance)) return false;
  for (const flag of ['verified', 'actionable', 'governance'] as const) if (v[flag] !== null && e[flag] !== v[flag]) return false;
  return true;
}
const usesAssetAttributes = (v: MonitoringView) =>
  v.assetSectors.length + v.assetSubsectors.length + v.assetEcosystemNetworkIds.length > 0 || v.assetPreTge !== null;

beforeAll(() => {
  s = createMonitoringService({ seed: 11, scale: 0.5, profile: 'default', apiKey: KEY, now: () => NOW });
  all = s.events();
});

describe('categories', () => {
  it('serves the full taxonomy with slug, name, description and subcategories', () => {
    const { status, body } = get('/monitoring/v2/categories');
    expect(status).toBe(200);
    expect(body.error).toBeNull();
    expect(body.data.map((c: any) => c.slug)).toEqual([
      'component_management',
      'launches_and_releases',
      'legal_and_regulatory',
      'performance',
      'protocol_management',
      'security_and_hacks',
      'team_and_operations',
      'token_listing',
      'tokenomics',
      'treasury_management',
      'no_category',
    ]);
    const subs = Object.fromEntries(body.data.map((c: any) => [c.slug, c.subcategories.map((x: any) => x.slug)]));
    expect(subs.token_listing).toEqual(['spot_listing', 'delisting', 'other_listing']);
    expect(subs.no_category).toEqual(['no_subcategory']);
    expect(subs.tokenomics).toHaveLength(7);
    for (const c of body.data) {
      for (const x of [c, ...c.subcategories]) for (const k of ['slug', 'name', 'description']) expect(typeof x[k]).toBe('string');
    }
    // Every event uses only slugs from the taxonomy.
    const known = new Set(body.data.flatMap((c: any) => [c.slug, ...c.subcategories.map((x: any) => x.slug)]));
    expect(all.flatMap((e) => [...e.intelCategories, ...e.intelSubcategories]).every((slug) => known.has(slug))).toBe(true);
  });
});

describe('monitoring views', () => {
  it('serves a view by UUID and by slug-with-id-prefix, with every MonitoringView field', () => {
    const views = s.views();
    expect(views).toHaveLength(s.sizes.views);
    for (const v of views) {
      expect(get(`/monitoring/v2/monitoring-views/${v.id}`).body).toEqual({ error: null, data: v });
      expect(get(`/monitoring/v2/monitoring-views/${v.slug}`).body.data.id).toBe(v.id);
      expect(v.slug.startsWith(`${v.id}-`)).toBe(true);
      expect(Object.keys(v).sort()).toEqual(
        [
          'actionable',
          'assetEcosystemNetworkIds',
          'assetIds',
          'assetPreTge',
          'assetSectors',
          'assetSubsectors',
          'configurationType',
          'evaluationStartAt',
          'governance',
          'id',
          'intelCategories',
          'intelSubcategories',
          'isOwner',
          'lastMatchAt',
          'matchCount24h',
          'minimumImportance',
          'name',
          'slug',
          'teamShared',
          'verified',
        ].sort(),
      );
      expect(Number.isInteger(v.matchCount24h)).toBe(true);
    }
  });

  it('answers 404 with the monitoring error envelope for an unknown view', () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-view', `${s.views()[0].id}-wrong-slug`]) {
      expect(get(`/monitoring/v2/monitoring-views/${id}`)).toEqual({ status: 404, body: { error: expect.any(String), data: null } });
      expect(get(`/monitoring/v2/monitoring-views/${id}/events`).status).toBe(404);
    }
  });

  it('view events are exactly the events matching the view predicates, newest first', () => {
    let checked = 0;
    for (const v of s.views()) {
      const got = viewEventIds(v.id);
      if (usesAssetAttributes(v)) {
        // Asset sectors, pre-TGE and networks are not in AssetRef: compare with the events filter.
        const q = new URLSearchParams();
        if (v.assetSectors.length) q.set('assetSectors', v.assetSectors.join(','));
        if (v.assetSubsectors.length) q.set('assetSubsectors', v.assetSubsectors.join(','));
        if (v.assetPreTge !== null) q.set('assetPreTge', String(v.assetPreTge));
        if (v.assetEcosystemNetworkIds.length) q.set('assetEcosystemNetworkIds', v.assetEcosystemNetworkIds.join(','));
        for (const f of ['verified', 'actionable', 'governance'] as const) if (v[f] !== null) q.set(f, String(v[f]));
        if (v.minimumImportance) q.set('minimumImportance', v.minimumImportance);
        const listed = get('/monitoring/v2/events', `${q}&limit=100`).body.metadata.totalRows;
        expect(got.length).toBe(listed);
      } else {
        expect(got).toEqual(all.filter((e) => matches(v, e)).map((e) => e.id));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
    // The first view has no predicates: it sees every event.
    expect(viewEventIds(s.views()[0].id)).toHaveLength(all.length);
  });

  it('view events take limit, page and search (max 200) and coerce the page size', () => {
    const v = s.views()[0];
    const page = get(`/monitoring/v2/monitoring-views/${v.slug}/events`, 'limit=500&page=2').body;
    expect(page.metadata).toEqual({ limit: 100, page: 2, totalRows: all.length, totalPages: Math.ceil(all.length / 100) });
    expect(page.data.map((e: MonitoringEvent) => e.id)).toEqual(all.slice(100, 200).map((e) => e.id));
    const word = all[0].assets[0].name.toLowerCase();
    expect(viewEventIds(v.id, `search=${encodeURIComponent(word)}`)).toEqual(
      all
        .filter((e) => `${e.title}\n${e.summary}\n${e.assets.map((a) => `${a.name} ${a.symbol}`).join(' ')}`.toLowerCase().includes(word))
        .map((e) => e.id),
    );
    expect(get(`/monitoring/v2/monitoring-views/${v.id}/events`, `search=${'y'.repeat(201)}`).status).toBe(400);
  });

  it('counts matches of the last 24 hours and the latest match', () => {
    const v = s.views()[0];
    const now = NOW.getTime();
    const recent = all.filter((e) => Date.parse(e.updatedAt) > now - 86_400_000 && Date.parse(e.updatedAt) <= now);
    expect(v.matchCount24h).toBe(recent.length);
    expect(v.lastMatchAt).toBe(
      all
        .map((e) => e.updatedAt)
        .sort()
        .at(-1),
    );
  });
});
