// @end-to-end
// Filters, sorting and paging of the /v1 lists, and the array encodings (repeated keys and
// comma-separated values alike). Expected results are computed from records(), not hard-coded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

type Rec = Record<string, any>;
let sb: Sandbox;

async function get(path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(sb.url + path, { headers: { 'x-api-key': sb.apiKey } });
  return { status: res.status, body: await res.json() };
}

async function all(path: string, limit: number): Promise<Rec[]> {
  const out: Rec[] = [];
  for (let page = 1; ; page++) {
    const { body } = await get(`${path}${path.includes('?') ? '&' : '?'}limit=${limit}&page=${page}`);
    out.push(...body.data);
    if (body.data.length < limit) return out;
  }
}

const ids = (rs: Rec[]) => rs.map((r) => r.id);

beforeAll(async () => {
  // Scale 0.45: 23 charts, so two are big (one in 16), and every asset class longer than a small page
  // (683 tokens, 136 equities, 81 tokenized stocks), at under half scale 1's assets for each sorted pull.
  sb = await startSandbox({ start: PINNED_START, scale: 0.45, seed: 7 });
});
afterAll(async () => {
  await sb.close();
});

describe('assets', () => {
  it('pages are exact: small pages concatenate to the default order (id ascending), per asset class', async () => {
    const records = sb.records('assets') as Rec[];
    for (const cls of ['token', 'equity', 'tokenizedStock']) {
      const expected = records.filter((a) => a.asset_class === cls).map((a) => a.id);
      expect(expected.length).toBeGreaterThan(2 * 37); // three pages or more
      expect(ids(await all(`/v1/assets?asset_class=${cls}`, 37))).toEqual(expected);
    }
    const def = (await get('/v1/assets?limit=100')).body.data as Rec[];
    expect(def.every((a) => a.asset_class === 'token')).toBe(true);
  });

  it('code, slug, category and ids_or_codes filter; arrays accept repeated keys and commas alike', async () => {
    const tokens = (sb.records('assets') as Rec[]).filter((a) => a.asset_class === 'token');
    const a = tokens[10];
    expect(ids((await get(`/v1/assets?code=${a.code.toLowerCase()}`)).body.data)).toEqual(
      tokens.filter((t) => t.code === a.code).map((t) => t.id),
    );
    expect(ids((await get(`/v1/assets?slug=${a.slug}`)).body.data)).toEqual([a.id]);
    const cats = [...new Set(tokens.map((t) => t.category).filter(Boolean))].slice(0, 2) as string[];
    const expected = tokens.filter((t) => cats.includes(t.category)).map((t) => t.id);
    const q = (v: string) => encodeURIComponent(v);
    expect(ids(await all(`/v1/assets?category=${q(cats[0])},${q(cats[1])}`, 100))).toEqual(expected);
    expect(ids(await all(`/v1/assets?category=${q(cats[0])}&category=${q(cats[1])}`, 100))).toEqual(expected);
    const b = tokens[20];
    const c = tokens[30];
    const r = (await get(`/v1/assets?ids_or_codes=${b.id},${c.code}`)).body.data as Rec[];
    expect(ids(r)).toEqual(tokens.filter((t) => t.id === b.id || t.code === c.code).map((t) => t.id));
  });

  it.each([
    'market_cap.usd',
    'price.usd',
    'code',
    'market_cap.rank',
    'supply.total',
    'sector.title',
  ])('order_by=%s sorts both ways, nulls last, ties by id, and pages stay exact', async (key) => {
    const asc = await all(`/v1/assets?order_by=${key}&order_dir=asc`, 100);
    const desc = await all(`/v1/assets?order_by=${key}&order_dir=desc`, 100);
    expect(asc).toHaveLength(desc.length);
    expect(new Set(ids(asc)).size).toBe(asc.length);
    const value = (a: Rec): unknown => {
      if (key === 'code' || key === 'sector.title') return a[key.split('.')[0]];
      if (key === 'supply.total') return undefined;
      return a[key.split('.')[0]]?.[key.split('.')[1]];
    };
    if (key === 'supply.total') return; // not part of Asset: order checked by uniqueness and size only
    const expanded = await all(`/v1/assets?order_by=${key}&order_dir=asc&expand=market_cap,price`, 100);
    const vals = expanded.map(value);
    // Nulls last: nothing but nulls after the first null (an empty tail when there is none).
    const firstNull = vals.indexOf(null);
    expect(vals.slice(firstNull < 0 ? vals.length : firstNull).every((v) => v === null)).toBe(true);
    const nonNull = vals.filter((v) => v !== null) as (number | string)[];
    for (let i = 1; i < nonNull.length; i++) expect(nonNull[i - 1] <= nonNull[i]).toBe(true);
  });
});

describe('projects and chains', () => {
  it('default order is title ascending; filters by search, slugs, asset codes, ids, parent and taxonomy slugs', async () => {
    const projects = sb.records('projects') as Rec[];
    const titles = projects.map((p) => p.title.toLowerCase());
    expect(titles).toEqual([...titles].sort());
    const p = projects[5];
    const word = p.title.slice(1, 4).toLowerCase();
    expect(ids(await all(`/v1/projects?search=${word}`, 1000))).toEqual(
      projects.filter((x) => x.title.toLowerCase().includes(word)).map((x) => x.id),
    );
    expect(ids((await get(`/v1/projects?slugs=${projects[1].slug}&slugs=${projects[2].slug}`)).body.data).sort()).toEqual(
      [projects[1].id, projects[2].id].sort(),
    );
    expect(ids((await get(`/v1/projects?id=${projects[3].id},${projects[4].id}`)).body.data).sort()).toEqual(
      [projects[3].id, projects[4].id].sort(),
    );
    const withAsset = projects.find((x) => x.asset)!;
    const byCode = (await get(`/v1/projects?asset_codes=${withAsset.asset.code}`)).body.data as Rec[];
    expect(ids(byCode)).toContain(withAsset.id);
    const child = projects.find((x) => x.parent_project)!;
    expect(ids((await get(`/v1/projects?parent_project_id=${child.parent_project.id}`)).body.data)).toContain(child.id);
    const sectors = sb.records('sectors') as Rec[];
    const sector = sectors.find((s) => s.title === p.sector)!;
    const bySector = await all(`/v1/projects?sector_slugs=${sector.slug}`, 1000);
    expect(ids(bySector)).toEqual(projects.filter((x) => x.sector === sector.title).map((x) => x.id));
    const groups = sb.records('groups') as Rec[];
    const group = groups.find((g) => g.title === p.group)!;
    expect(ids(await all(`/v1/projects?group_slugs=${group.slug}`, 1000))).toEqual(
      projects.filter((x) => x.group === group.title).map((x) => x.id),
    );
  });

  it('a project lists its chains; chains filter by search, id and sector slugs', async () => {
    const p = (sb.records('projects') as Rec[])[0];
    const chains = (await get(`/v1/projects/${p.id}/chains`)).body;
    expect(chains).toMatchObject({ page: 1, data: expect.any(Array) });
    expect(chains.data.length).toBeGreaterThan(0);
    const c = chains.data[0];
    expect((await get(`/v1/chains/${c.slug}`)).body).toEqual(c);
    expect(ids((await get(`/v1/chains?id=${c.id}`)).body.data)).toEqual([c.id]);
    const allChains = sb.records('chains') as Rec[];
    const sector = c.sector_slugs[0];
    expect(ids(await all(`/v1/chains?sector_slugs=${sector}`, 1000))).toEqual(
      allChains.filter((x) => x.sector_slugs.includes(sector)).map((x) => x.id),
    );
  });
});

describe('reference lists', () => {
  it('glossary: status defaults to true; id and slug filters; ordered by slug', async () => {
    const allGlossary = sb.records('glossary') as Rec[];
    const active = await all('/v1/glossary', 1000);
    expect(ids(active)).toEqual(allGlossary.filter((g) => g.status).map((g) => g.id));
    expect(ids(await all('/v1/glossary?status=false', 1000))).toEqual(allGlossary.filter((g) => !g.status).map((g) => g.id));
    const slugs = allGlossary.map((g) => g.slug);
    expect(slugs).toEqual([...slugs].sort());
    expect((await get(`/v1/glossary?slug=${allGlossary[3].slug}&status=null`)).body.data).toEqual([allGlossary[3]]);
    expect((await get(`/v1/glossary/${allGlossary[4].slug}`)).body).toEqual(allGlossary[4]);
    expect((await get(`/v1/glossary/${allGlossary[4].id}`)).body).toEqual(allGlossary[4]);
  });

  it('transparency: project_id filter and sort by total', async () => {
    const ratings = sb.records('transparency') as Rec[];
    const projects = sb.records('projects') as Rec[];
    const p = projects.find((x) => x.asset && ratings.some((r) => r.asset_id === x.asset.id))!;
    expect(ids((await get(`/v1/transparency?project_id=${p.id}`)).body.data)).toEqual(
      ratings.filter((r) => r.asset_id === p.asset.id).map((r) => r.id),
    );
    const byTotal = await all('/v1/transparency?order_by=total&order_dir=desc', 1000);
    const total = (r: Rec) => r.project_team.rating + r.token_allocation.rating + r.market_structure.rating + r.financial_disclosure.rating;
    for (let i = 1; i < byTotal.length; i++) expect(total(byTotal[i - 1])).toBeGreaterThanOrEqual(total(byTotal[i]));
  });
});

describe('market data', () => {
  it('market-stats: newest first by default; start_date and end_date are inclusive', async () => {
    const rows = sb.records('market-stats') as Rec[];
    const dates = rows.map((r) => r.date);
    expect(dates).toEqual([...dates].sort().reverse());
    const [from, to] = [dates[40], dates[10]];
    const window = await all(`/v1/market-stats?start_date=${from}&end_date=${to}&order_by=id&order_dir=asc`, 100);
    expect(window.map((r) => r.date)).toEqual(dates.slice(10, 41).reverse());
    const hourly = (await get(`/v1/market-stats?group_by=hour&start_date=${to}&end_date=${to}&limit=100`)).body.data;
    expect(hourly).toHaveLength(24);
  });

  it('sec filings: newest filing date first; form_type, company, category and date filters', async () => {
    const filings = sb.records('sec-filings') as Rec[];
    const dates = filings.map((f) => f.filing_date);
    expect(dates).toEqual([...dates].sort().reverse());
    const f = filings[100];
    const keys = (rs: Rec[]) => rs.map((r) => r.accession_number);
    expect(keys(await all(`/v1/sec/filings?form_type=${encodeURIComponent(f.form_type)}`, 100))).toEqual(
      keys(filings.filter((x) => x.form_type === f.form_type)),
    );
    const part = f.company.slice(0, 5).toLowerCase();
    expect(keys(await all(`/v1/sec/filings?company=${part}`, 100))).toEqual(
      keys(filings.filter((x) => x.company.toLowerCase().includes(part))),
    );
    expect(
      keys(
        await all(
          `/v1/sec/filings?category=${encodeURIComponent(f.category)}&start_filing_date=${f.filing_date}&end_filing_date=${f.filing_date}`,
          100,
        ),
      ),
    ).toEqual(keys(filings.filter((x) => x.category === f.category && x.filing_date === f.filing_date)));
    expect((await get(`/v1/sec/filings/${f.accession_number}`)).body).toEqual(f);
  });

  it('metrics: catalogue filters, and series keyed by project with {date, value}', async () => {
    const metrics = sb.records('metrics') as Rec[];
    const m = metrics[2];
    expect((await get(`/v1/metrics?identifier=${m.identifier}`)).body.data).toEqual([m]);
    const projects = sb.records('projects') as Rec[];
    const [a, b] = [projects[0].slug, projects[1].slug];
    const series = (await get(`/v1/metrics/${m.identifier}?project=${a},${b}`)).body;
    expect(Object.keys(series).sort()).toEqual([a, b].sort());
    const covered = (await get(`/v1/metrics?project=${a}&limit=1000`)).body.data as Rec[];
    expect(series[a].length > 0).toBe(covered.some((x) => x.id === m.id));
    for (const point of series[a]) expect(point).toEqual({ date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), value: expect.any(Number) });
  });
});

describe('charts', () => {
  it('search matches chart and dashboard titles, case-insensitively', async () => {
    const charts = sb.records('charts') as Rec[];
    const word = charts[0].dashboards[0].slice(0, 4).toUpperCase();
    expect(ids(await all(`/v1/charts?search=${word}`, 100))).toEqual(
      charts
        .filter((c) => (c.title ?? '').toUpperCase().includes(word) || c.dashboards.some((d: string) => d.toUpperCase().includes(word)))
        .map((c) => c.id),
    );
  });

  it('data: pages, recursive search, select and order_by; the dashboard path names the same chart', async () => {
    const charts = sb.records('charts') as Rec[];
    const c = charts[1];
    const rows = (await get(`/v1/charts/${c.id}/data?limit=100000`)).body.data as Rec[];
    const page2 = (await get(`/v1/charts/${c.id}/data?limit=3&page=2`)).body.data;
    expect(page2).toEqual(rows.slice(3, 6));
    const key = Object.keys(rows[0])[0];
    const selected = (await get(`/v1/charts/${c.id}/data?limit=5&select=${key}`)).body.data as Rec[];
    expect(selected).toEqual(rows.slice(0, 5).map((r) => ({ [key]: r[key] })));
    const needle = String(Object.values(rows[rows.length - 1]).find((v) => typeof v === 'string'))
      .slice(0, 3)
      .toLowerCase();
    const found = await all(`/v1/charts/${c.id}/data?search=${encodeURIComponent(needle)}`, 100000);
    expect(found).toEqual(rows.filter((r) => JSON.stringify(Object.values(r)).toLowerCase().includes(needle)));
    const sorted = (await get(`/v1/charts/${c.id}/data?limit=100000&order_by=${key}&order_dir=desc`)).body.data as Rec[];
    expect(sorted).toHaveLength(rows.length);
    for (let i = 1; i < sorted.length; i++) if (sorted[i][key] !== null) expect(sorted[i - 1][key] >= sorted[i][key]).toBe(true);
  });

  it('a few charts hold over 100,000 rows, served page by page', async () => {
    const charts = sb.records('charts') as Rec[];
    const big = [];
    for (const c of charts) {
      const last = await get(`/v1/charts/${c.id}/data?limit=100000&page=2&select=__none__`);
      if (last.body.data.length > 0) big.push(c.id);
    }
    expect(big.length).toBeGreaterThanOrEqual(2);
  });
});
