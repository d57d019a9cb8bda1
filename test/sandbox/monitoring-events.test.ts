// /monitoring/v2/events through `handle`: envelope, shapes, paging coercion, every filter checked
// against the same rule applied by the test to the full event list, and the 400s.
import { beforeAll, describe, expect, it } from 'vitest';
import { createMonitoringService, type MonitoringEvent, type MonitoringService } from '../../sandbox/monitoring/index.js';

const KEY = 'test-key';
const NOW = new Date('2025-06-01T00:00:00Z');
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const LEVELS = ['not-important', 'low', 'medium', 'high'];

let s: MonitoringService;
let all: MonitoringEvent[];

function get(query: string, path = '/monitoring/v2/events', headers: Record<string, string> = { 'X-Service-API-Key': KEY }) {
  const res = s.handle({ path, query: new URLSearchParams(query), headers });
  if (!res) throw new Error(`no handler for ${path}`);
  return res as { status: number; body: any };
}

/** Ids of every matching event (all pages at 100). */
function ids(query: string): string[] {
  const out: string[] = [];
  for (let page = 1; ; page++) {
    const { status, body } = get(`${query}&limit=100&page=${page}`);
    expect(status).toBe(200);
    out.push(...body.data.map((e: MonitoringEvent) => e.id));
    if (page >= body.metadata.totalPages) return out;
  }
}
const expected = (pred: (e: MonitoringEvent) => boolean): string[] => all.filter(pred).map((e) => e.id);

beforeAll(() => {
  // Scale 0.12 (240 events, three pages at 100): every filter still matches some events and not all.
  s = createMonitoringService({ seed: 7, scale: 0.12, profile: 'default', apiKey: KEY, now: () => NOW });
  all = s.events();
});

describe('events envelope and shapes', () => {
  it('wraps a page in {error:null, data, metadata} with the spec field types', () => {
    const { status, body } = get('limit=5');
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['error', 'data', 'metadata']);
    expect(body.error).toBeNull();
    expect(body.metadata).toEqual({ limit: 5, page: 1, totalRows: all.length, totalPages: Math.ceil(all.length / 5) });
    for (const e of body.data as MonitoringEvent[]) {
      expect(e.id).toMatch(UUID);
      expect(e.slug.startsWith(`${e.id}-`)).toBe(true);
      for (const k of ['title', 'summary', 'industry'] as const) expect(typeof e[k]).toBe('string');
      for (const k of ['startedAt', 'endedAt', 'createdAt', 'updatedAt'] as const) expect(e[k]).toMatch(RFC3339);
      expect(LEVELS).toContain(e.importance);
      for (const k of ['verified', 'actionable', 'governance'] as const) expect(typeof e[k]).toBe('boolean');
      expect(Number.isInteger(e.developmentCount) && Number.isInteger(e.documentCount)).toBe(true);
      expect(e.assets.length).toBeGreaterThan(0);
      expect(e.assets[0].class).toBe('primary');
      for (const a of e.assets) expect(Object.keys(a).sort()).toEqual(['class', 'id', 'name', 'slug', 'symbol']);
      for (const d of e.developments) {
        expect(Object.keys(d).sort()).toEqual(
          [
            'actionable',
            'endedAt',
            'governance',
            'id',
            'importance',
            'intelCategories',
            'intelSubcategories',
            'slug',
            'startedAt',
            'summary',
            'title',
            'verified',
          ].sort(),
        );
      }
    }
  });

  it('keeps every event consistent with its developments', () => {
    for (const e of all) {
      const devs = e.developments.map((d) => s.development(d.id)!);
      expect(e.developmentCount).toBe(devs.length);
      expect(devs.length).toBeGreaterThanOrEqual(1);
      expect(e.documentCount).toBe(devs.reduce((n, d) => n + d.documents.length, 0));
      expect(e.startedAt).toBe(devs.map((d) => d.startedAt).sort()[0]);
      expect(e.endedAt).toBe(
        devs
          .map((d) => d.endedAt)
          .sort()
          .at(-1),
      );
      expect(
        e.updatedAt >=
          devs
            .map((d) => d.updatedAt)
            .sort()
            .at(-1)!,
      ).toBe(true);
      expect(LEVELS.indexOf(e.importance)).toBe(Math.max(...devs.map((d) => LEVELS.indexOf(d.importance))));
      expect(new Set(e.intelSubcategories)).toEqual(new Set(devs.flatMap((d) => d.intelSubcategories)));
      expect(new Set(e.intelCategories)).toEqual(new Set(devs.flatMap((d) => d.intelCategories)));
      for (const d of devs) expect(d.event).toEqual({ id: e.id, slug: e.slug, title: e.title, developmentCount: e.developmentCount });
    }
  });

  it('lists newest startedAt first', () => {
    const started = all.map((e) => e.startedAt);
    expect(started).toEqual([...started].sort().reverse());
    expect(ids('').length).toBe(all.length);
  });
});

describe('page size and page coercion (never an error)', () => {
  it.each([
    ['', 10],
    ['limit=0', 10],
    ['limit=-5', 10],
    ['limit=abc', 10],
    ['limit=2.5', 10],
    ['limit=100', 100],
    ['limit=101', 100],
    ['limit=5000', 100],
    ['limit=37', 37],
  ])('%s gives page size %i', (query, size) => {
    const { status, body } = get(query);
    expect(status).toBe(200);
    expect(body.metadata.limit).toBe(size);
    expect(body.data.length).toBe(Math.min(size, all.length));
  });

  it('serves later pages and an empty page past the end', () => {
    expect(get('limit=7&page=2').body.data.map((e: MonitoringEvent) => e.id)).toEqual(all.slice(7, 14).map((e) => e.id));
    const past = get(`limit=100&page=${Math.ceil(all.length / 100) + 1}`).body;
    expect(past.data).toEqual([]);
    expect(past.metadata.totalRows).toBe(all.length);
  });
});

describe('the 15 filters', () => {
  const first = (): MonitoringEvent => all[3];

  it('assetIds: UUIDs or slugs, unresolved tokens dropped', () => {
    const a = first().assets[0];
    const has = (e: MonitoringEvent) => e.assets.some((x) => x.id === a.id);
    expect(ids(`assetIds=${a.id}`)).toEqual(expected(has));
    expect(ids(`assetIds=${a.slug},no-such-asset`)).toEqual(expected(has));
    expect(ids('assetIds=no-such-asset').length).toBe(all.length);
  });

  it('eventIds: UUID or slug-with-id-prefix; unresolvable token is a 400 quoting it', () => {
    const [a, b] = [all[1], all[5]];
    expect(ids(`eventIds=${a.id},${b.slug}`)).toEqual([a.id, b.id]);
    const bad = get(`eventIds=${a.id},nope-123`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: expect.stringContaining('"nope-123"'), data: null });
    expect(get(`eventIds=${a.id}-wrong-slug`).status).toBe(400);
  });

  it('intelCategories and intelSubcategories (OR within, AND across)', () => {
    expect(ids('intelCategories=tokenomics,performance')).toEqual(
      expected((e) => e.intelCategories.some((c) => c === 'tokenomics' || c === 'performance')),
    );
    expect(ids('intelSubcategories=airdrop&intelCategories=tokenomics')).toEqual(expected((e) => e.intelSubcategories.includes('airdrop')));
    expect(ids('intelCategories=not_a_category')).toEqual([]);
  });

  it('minimumImportance is inclusive; an unknown level is a 400', () => {
    for (const level of LEVELS) {
      expect(ids(`minimumImportance=${level}`)).toEqual(expected((e) => LEVELS.indexOf(e.importance) >= LEVELS.indexOf(level)));
    }
    expect(get('minimumImportance=urgent').status).toBe(400);
  });

  it('verified, actionable, governance restrict to the value given', () => {
    for (const flag of ['verified', 'actionable', 'governance'] as const) {
      expect(ids(`${flag}=true`)).toEqual(expected((e) => e[flag]));
      expect(ids(`${flag}=false`)).toEqual(expected((e) => !e[flag]));
    }
    expect(get('verified=maybe').status).toBe(400);
  });

  it('asset sectors, subsectors, pre-TGE and ecosystem networks match any asset of the event', () => {
    const bySector = ids('assetSectors=Financial Services');
    const bySlug = ids('assetSectors=financial-services');
    expect(bySector.length).toBeGreaterThan(0);
    expect(bySlug).toEqual(bySector);
    const subsectors = ids('assetSubsectors=Lending,Oracles');
    expect(subsectors.length).toBeGreaterThan(0);
    expect(subsectors.length).toBeLessThan(all.length);
    expect(ids('assetPreTge=true').length + ids('assetPreTge=false').length).toBeGreaterThanOrEqual(all.length);
    const ethereum = s.assets()[1];
    const onEthereum = ids(`assetEcosystemNetworkIds=${ethereum.id}`);
    expect(onEthereum.length).toBeGreaterThan(0);
    expect(ids(`assetEcosystemNetworkIds=${ethereum.slug}`)).toEqual(onEthereum);
    // A filter narrows: every sector match is also in the unfiltered list.
    expect(bySector.every((id) => all.some((e) => e.id === id))).toBe(true);
  });

  it('start and end bound startedAt, in RFC 3339, YYYY-MM-DD and epoch seconds', () => {
    const from = all[Math.floor(all.length / 2)].startedAt;
    const to = all[Math.floor(all.length / 4)].startedAt;
    const want = expected((e) => e.startedAt >= from && e.startedAt <= to);
    expect(ids(`start=${from}&end=${to}`)).toEqual(want);
    const epoch = (t: string) => Date.parse(t) / 1000;
    expect(ids(`start=${epoch(from)}&end=${epoch(to)}`)).toEqual(want);
    const day = from.slice(0, 10);
    expect(ids(`start=${day}&end=${day}`)).toEqual(expected((e) => e.startedAt.slice(0, 10) === day));
    expect(get('start=last-tuesday').status).toBe(400);
  });

  it('search matches title, summary and asset names, case-insensitive, max 200 chars', () => {
    const word = first().assets[0].name.split(' ')[0];
    const got = ids(`search=${word.toUpperCase()}`);
    expect(got).toContain(first().id);
    expect(got).toEqual(
      expected((e) =>
        `${e.title}\n${e.summary}\n${e.assets.map((a) => `${a.name} ${a.symbol}`).join(' ')}`.toLowerCase().includes(word.toLowerCase()),
      ),
    );
    expect(get(`search=${'x'.repeat(200)}`).status).toBe(200);
    expect(get(`search=${'x'.repeat(201)}`).status).toBe(400);
  });

  it('accepts repeated keys like comma-separated values', () => {
    expect(ids('intelCategories=tokenomics&intelCategories=performance')).toEqual(ids('intelCategories=tokenomics,performance'));
  });
});

describe('errors and auth', () => {
  it('rejects a missing or wrong key with the monitoring error envelope (401), header name case-insensitive', () => {
    for (const headers of <Record<string, string>[]>[{}, { 'x-service-api-key': 'wrong' }, { 'x-api-key': KEY }]) {
      const res = get('', '/monitoring/v2/events', headers);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: expect.any(String), data: null });
      expect(res.body.error).not.toContain(KEY);
    }
    expect(get('', '/monitoring/v2/events', { 'x-SERVICE-api-KEY': KEY }).status).toBe(200);
  });

  it('answers 404 for unknown developments and paths, null for paths that are not its own', () => {
    expect(get('', '/monitoring/v2/developments/00000000-0000-4000-8000-000000000000')).toEqual({
      status: 404,
      body: { error: expect.any(String), data: null },
    });
    const dev = all[0].developments[0];
    expect(get('', `/monitoring/v2/developments/${dev.id}`).body.data.id).toBe(dev.id);
    expect(get('', '/monitoring/v2/nothing-here').status).toBe(404);
    expect(s.handle({ path: '/v1/assets', query: new URLSearchParams(), headers: {} })).toBeNull();
  });
});
