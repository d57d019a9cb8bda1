// Every field of every /v1 shape the spec tables: presence, type, nullability (and that every
// nullable field does carry some nulls), maximum lengths, enums; E fields only when expanded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

type T = 'int' | 'number' | 'string' | 'boolean' | 'object' | 'array';
interface F {
  t: T;
  null?: true;
  max?: number;
  enum?: readonly string[];
}
type Shape = Record<string, F>;
type Rec = Record<string, unknown>;

const int: F = { t: 'int' };
const num = (nullable = true): F => (nullable ? { t: 'number', null: true } : { t: 'number' });
const str = (max?: number, nullable = false): F => ({ t: 'string', max, ...(nullable ? { null: true as const } : {}) });
const ts: F = { t: 'int', null: true };

const ASSET: Shape = {
  id: int,
  code: str(20),
  title: str(100),
  slug: str(100),
  tag_line: str(255, true),
  description: str(65535, true),
  image_url: str(255, true),
  category: str(25, true),
  is_preview: { t: 'boolean', null: true },
  updated_at: ts,
  type: { t: 'string', null: true, enum: ['Infrastructure', 'Application'] },
  asset_class: { t: 'string', enum: ['token', 'equity', 'tokenizedStock'] },
  sector: str(100, true),
  sparkline: str(65535),
};
const MARKET_CAP: Shape = Object.fromEntries(
  [
    'rank',
    'usd',
    'dominance',
    'percent_change_btc_1h',
    'percent_change_btc_24h',
    'percent_change_usd_1h',
    'percent_change_usd_24h',
    'percent_change_usd_7d',
    'percent_change_usd_30d',
    'percent_change_usd_ytd',
    'percent_change_eth_1h',
    'percent_change_eth_24h',
    'updated_at',
  ].map((k) => [k, num()]),
);
const PRICE: Shape = { usd: num(), btc: num(), eth: num(), updated_at: ts };
const EQUITY: Shape = Object.fromEntries(
  [
    'market_cap',
    'shares_outstanding',
    'avg_daily_volume_30d',
    'ttm_revenue',
    'ttm_earnings',
    'price_to_sales',
    'price_to_earnings',
    'earnings_per_share',
    'updated_at',
  ].map((k) => [k, num()]),
);
const OHLCV: Shape = { open: num(), high: num(), low: num(), close: num(), volume: num(), updated_at: ts };
const SHORT_PROJECT: Shape = { id: int, title: str(100), slug: str(100), image_url: str(255, true) };
const PROJECT: Shape = {
  id: int,
  title: str(100),
  tagline: str(255, true),
  description: str(65535, true),
  slug: str(100),
  url: str(255, true),
  image_url: str(255, true),
  updated_at: ts,
  force_searchable: { t: 'boolean' },
  industry: str(),
  sector: str(),
  group: str(),
  leaderboards: { t: 'array' },
};
const RATING: Shape = {
  id: int,
  asset_id: int,
  summary: str(65535, true),
  created_at: int,
  updated_at: int,
  asset_code: str(20),
  asset_title: str(100),
  asset_slug: str(100),
  asset_image_url: str(),
  project_team: { t: 'object' },
  token_allocation: { t: 'object' },
  market_structure: { t: 'object' },
  financial_disclosure: { t: 'object' },
  download_url: str(undefined, true),
};
const MARKETS: Shape = {
  volume_24h: num(),
  ath: num(),
  ath_change_percentage: num(),
  total_open_interest: num(),
  total_liquidations: num(),
  ath_date: ts,
  updated_at: ts,
  asset_code: str(20),
  asset_slug: str(100),
};

function typeOk(v: unknown, t: T): boolean {
  if (t === 'int') return Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 4294967295;
  if (t === 'array') return Array.isArray(v);
  if (t === 'object') return typeof v === 'object' && v !== null && !Array.isArray(v);
  return typeof v === t;
}

/** Problems of one record against a shape (strict: no field missing, none extra unless allowed). */
function problems(rec: Rec, shape: Shape, extra: readonly string[] = []): string[] {
  const out: string[] = [];
  for (const [k, f] of Object.entries(shape)) {
    if (!(k in rec)) {
      out.push(`${k} missing`);
      continue;
    }
    const v = rec[k];
    if (v === null) {
      if (!f.null) out.push(`${k} is null`);
      continue;
    }
    if (!typeOk(v, f.t)) out.push(`${k}=${JSON.stringify(v)} is not ${f.t}`);
    if (f.max !== undefined && typeof v === 'string' && v.length > f.max) out.push(`${k} longer than ${f.max}`);
    if (f.enum && !f.enum.includes(v as string)) out.push(`${k}=${String(v)} not in enum`);
  }
  for (const k of Object.keys(rec)) if (!(k in shape) && !extra.includes(k)) out.push(`unexpected ${k}`);
  return out;
}

function expectAll(recs: Rec[], shape: Shape, extra: readonly string[] = []) {
  expect(recs.length).toBeGreaterThan(0);
  const bad = recs.flatMap((r) => problems(r, shape, extra).map((p) => `${String(r.id)}: ${p}`));
  expect(bad.slice(0, 10)).toEqual([]);
  // Every nullable field carries some nulls, so a mirror's NOT NULL mistakes show up in tests.
  for (const [k, f] of Object.entries(shape))
    if (f.null)
      expect(
        recs.some((r) => r[k] === null),
        `${k} has no null`,
      ).toBe(true);
}

let sb: Sandbox;
async function get(path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(sb.url + path, { headers: { 'x-api-key': sb.apiKey } });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  sb = await startSandbox({ start: PINNED_START, scale: 1 });
});
afterAll(async () => {
  await sb.close();
});

describe('Asset and its expandable parts', () => {
  it('every asset matches Asset, with MarketCap, Price, EquityMarketData and ShortProject when expanded', () => {
    const assets = sb.records('assets') as Rec[];
    expect(assets.length).toBeGreaterThan(1500);
    expectAll(assets, ASSET, ['market_cap', 'price', 'equity_market_data', 'project']);
    expectAll(
      assets.map((a) => a.market_cap as Rec),
      MARKET_CAP,
    );
    expectAll(
      assets.map((a) => a.price as Rec),
      PRICE,
    );
    expectAll(
      assets.map((a) => a.equity_market_data as Rec),
      EQUITY,
    );
    expectAll(assets.map((a) => a.project as Rec).filter(Boolean), SHORT_PROJECT);
    expect(new Set(assets.map((a) => a.asset_class))).toEqual(new Set(['token', 'equity', 'tokenizedStock']));
  });

  it('returns E fields only when expanded (comma-separated or repeated expand)', async () => {
    const plain = (await get('/v1/assets?limit=5')).body.data as Rec[];
    for (const a of plain) expect(problems(a, ASSET)).toEqual([]);
    const one = (await get('/v1/assets?limit=5&expand=price')).body.data as Rec[];
    for (const a of one) expect(Object.keys(a).filter((k) => !(k in ASSET))).toEqual(['price']);
    const comma = await get('/v1/assets?limit=5&expand=price,market_cap,equity_market_data,project');
    const repeated = await get('/v1/assets?limit=5&expand=price&expand=market_cap&expand=equity_market_data&expand=project');
    expect(repeated.body).toEqual(comma.body);
    expect(Object.keys(comma.body.data[0])).toEqual(expect.arrayContaining(['price', 'market_cap', 'equity_market_data', 'project']));
  });

  it('AssetDetail is a bare object; breadcrumbs only when expanded', async () => {
    const a = (sb.records('assets') as Rec[])[3];
    const plain = await get(`/v1/assets/${a.id}`);
    expect(problems(plain.body, ASSET)).toEqual([]);
    const bySlug = await get(`/v1/assets/${a.slug}?expand=breadcrumbs`);
    expect(bySlug.body.id).toBe(a.id);
    expect(bySlug.body.breadcrumbs.length).toBeGreaterThan(0);
    for (const b of bySlug.body.breadcrumbs) expect(problems(b, { slug: str(), title: str() })).toEqual([]);
  });

  it('per-asset records: markets and ohlcv as the spec, price, market-cap and supply with asset ids', async () => {
    // The first 100 assets' records carry a null in every nullable field (60 did not: updated_at); 300 cost
    // three times the 200 requests for nothing more.
    const ids = (sb.records('assets') as Rec[]).slice(0, 100).map((a) => a.id);
    const markets = await Promise.all(ids.map(async (id) => (await get(`/v1/assets/${id}/markets`)).body));
    expectAll(markets, MARKETS);
    const ohlcv = await Promise.all(ids.map(async (id) => (await get(`/v1/assets/${id}/ohlcv`)).body));
    expectAll(ohlcv, { ...OHLCV, asset_code: str(20), asset_slug: str(100) });
    for (const kind of ['price', 'market-cap', 'supply']) {
      const r = await get(`/v1/assets/${ids[0]}/${kind}`);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ asset_id: ids[0], asset_code: expect.any(String), asset_slug: expect.any(String) });
    }
  });
});

describe('Project, ProjectAsset, ChildProject', () => {
  it('every project matches Project; relations when expanded', () => {
    const projects = sb.records('projects') as Rec[];
    expect(projects.length).toBe(1000);
    expectAll(projects, PROJECT, ['asset', 'parent_project', 'child_projects']);
    expectAll(projects.map((p) => p.parent_project as Rec).filter(Boolean), SHORT_PROJECT);
    const assets = projects.map((p) => p.asset as Rec).filter(Boolean);
    const projectAsset: Shape = {
      ...ASSET,
      fully_diluted_valuation_usd: { t: 'number' },
      vendor_a_api_id: str(),
      vendor_b_api_id: str(),
      charting_vendor_ref: str(),
    };
    expectAll(assets, projectAsset, ['market_cap', 'price', 'equity_market_data', 'project', 'ohlcv_last_24h']);
    expectAll(
      assets.map((a) => a.ohlcv_last_24h as Rec),
      OHLCV,
    );
    const children = projects.flatMap((p) => p.child_projects as Rec[]);
    expect(children.length).toBeGreaterThan(0);
    for (const c of children) expect(problems(c, SHORT_PROJECT, ['asset'])).toEqual([]);
    const childAssets = children.flatMap((c) => (c.asset ? [c.asset as Rec] : []));
    expect(childAssets.length).toBeGreaterThan(0);
    for (const a of childAssets) expect(problems(a, { id: int, code: str(20), title: str(100) }, ['market_cap'])).toEqual([]);
  });

  it('a project detail is a bare Project; E fields only when expanded', async () => {
    const p = (sb.records('projects') as Rec[])[0];
    const r = await get(`/v1/projects/${p.slug}`);
    expect(problems(r.body, PROJECT)).toEqual([]);
    const e = await get(`/v1/projects/${p.id}?expand=asset`);
    expect(Object.keys(e.body.asset ?? {})).not.toContain('ohlcv_last_24h');
    const deep = await get(`/v1/projects/${p.id}?expand=asset.ohlcv_last_24h`);
    expect(problems(deep.body.asset.ohlcv_last_24h, OHLCV)).toEqual([]); // the first project is a token's
  });
});

describe('TransparencyRating and the other lists', () => {
  it('every rating matches TransparencyRating, with {rating,max} scores', async () => {
    const ratings = sb.records('transparency') as Rec[];
    expect(ratings.length).toBe(500);
    expectAll(ratings, RATING);
    for (const r of ratings.slice(0, 50)) expect(r.project_team).toEqual({ rating: expect.any(Number), max: expect.any(Number) });
    const one = await get(`/v1/transparency/${ratings[0].id}`);
    expect(one.body).toEqual(ratings[0]);
    const byAsset = await get(`/v1/assets/${ratings[0].asset_id}/transparency`);
    expect(byAsset.body).toEqual(ratings[0]);
  });

  it('charts: id, nullable title (max 255), dashboards as strings', () => {
    const charts = sb.records('charts') as Rec[];
    expect(charts.length).toBe(50);
    expectAll(charts, { id: int, title: str(255, true), dashboards: { t: 'array' } });
    for (const c of charts) for (const d of c.dashboards as unknown[]) expect(typeof d).toBe('string');
  });

  it('records whose fields are not shown carry ids, slugs or keys, titles and timestamps', () => {
    for (const name of ['chains', 'sectors', 'groups', 'industries', 'glossary']) {
      for (const r of sb.records(name) as Rec[]) {
        expect(r).toMatchObject({ id: expect.any(Number), slug: expect.any(String), title: expect.any(String) });
      }
    }
    for (const r of sb.records('sec-filings').slice(0, 100) as Rec[]) {
      expect(r).toMatchObject({
        accession_number: expect.stringMatching(/^\d{10}-\d{2}-\d{6}$/),
        filing_date: expect.any(String),
        updated_at: expect.any(Number),
      });
    }
    for (const r of sb.records('market-stats').slice(0, 10) as Rec[]) {
      expect(r).toMatchObject({
        id: expect.any(Number),
        date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        updated_at: expect.any(Number),
      });
    }
    for (const r of sb.records('metrics') as Rec[]) expect(r).toMatchObject({ id: expect.any(Number), identifier: expect.any(String) });
  });

  it('sizes at scale 1 follow the issue', () => {
    expect(sb.records('chains')).toHaveLength(200);
    expect(sb.records('glossary')).toHaveLength(300);
    expect(sb.records('sec-filings')).toHaveLength(1000);
    expect(sb.records('market-stats')).toHaveLength(365);
    expect(sb.records('metrics')).toHaveLength(100);
  });
});
