// Every /v1 list's limit range and default, page range, and the 400 body for bad values, point by
// point from the spec's Limits table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

let sb: Sandbox;

async function get(path: string) {
  const res = await fetch(sb.url + path, { headers: { 'x-api-key': sb.apiKey } });
  return { status: res.status, body: (await res.json()) as { page: number; total: number; data: unknown[] } & Record<string, unknown> };
}

beforeAll(async () => {
  // Scale 2: every list but the taxonomies holds more records than its default limit.
  sb = await startSandbox({ start: PINNED_START, scale: 2 });
});
afterAll(async () => {
  await sb.close();
});

const TAX = 'order_by=title&order_dir=asc';
// [path, extra query, max limit, default limit]
const LISTS: [string, string, number, number][] = [
  ['/v1/assets', '', 100, 100],
  ['/v1/market-stats', '', 100, 100],
  ['/v1/sec/filings', '', 100, 100],
  ['/v1/charts', '', 100, 100],
  ['/v1/transparency', '', 1000, 100],
  ['/v1/sectors', TAX, 1000, 100],
  ['/v1/groups', TAX, 1000, 100],
  ['/v1/industries', TAX, 1000, 100],
  ['/v1/metrics', '', 1000, 100],
  ['/v1/glossary', '', 1000, 1000],
  ['/v1/projects', '', 10000, 100],
  ['/v1/chains', '', 10000, 100],
];

function url(path: string, extra: string, params: string): string {
  return `${path}?${[extra, params].filter(Boolean).join('&')}`;
}

function expect400(r: { status: number; body: Record<string, unknown> }, fragment: string) {
  expect(r.status).toBe(400);
  expect(r.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
  expect(Array.isArray(r.body.message)).toBe(true);
  expect((r.body.message as string[]).join(' ')).toContain(fragment);
}

describe.each(LISTS)('%s', (path, extra, max, def) => {
  it(`serves the envelope {page,total,data} with default limit ${def} (or every record when fewer)`, async () => {
    const r = await get(url(path, extra, ''));
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['data', 'page', 'total']);
    expect(r.body.page).toBe(1);
    expect(Number.isInteger(r.body.total) && r.body.total >= 1 && r.body.total <= 100).toBe(true);
    const all = await get(url(path, extra, `limit=${max}`));
    expect(r.body.data.length).toBe(Math.min(def, all.body.data.length));
  });

  it(`accepts limit=1 and limit=${max}; rejects 0, ${max + 1}, non-integers`, async () => {
    expect((await get(url(path, extra, 'limit=1'))).body.data).toHaveLength(1);
    expect((await get(url(path, extra, `limit=${max}`))).status).toBe(200);
    expect400(await get(url(path, extra, 'limit=0')), 'limit must not be less than 1');
    expect400(await get(url(path, extra, `limit=${max + 1}`)), `limit must not be greater than ${max}`);
    for (const bad of ['abc', '1.5', '', '1e2']) expect400(await get(url(path, extra, `limit=${bad}`)), 'limit must be an integer');
    expect400(await get(url(path, extra, 'limit=1&limit=2')), 'limit must be an integer');
  });

  it('accepts page 1..2147483647 and answers an empty page past the end', async () => {
    expect400(await get(url(path, extra, 'page=0')), 'page must not be less than 1');
    expect400(await get(url(path, extra, 'page=2147483648')), 'page must not be greater than 2147483647');
    const far = await get(url(path, extra, 'page=2147483647'));
    expect(far.status).toBe(200);
    expect(far.body).toMatchObject({ page: 2147483647, data: [] });
  });

  it('rejects an order_dir outside asc|desc', async () => {
    if (path === '/v1/metrics' || path === '/v1/charts') return; // no order_dir declared
    const base = extra.replace('order_dir=asc', '');
    expect400(await get(url(path, base, 'order_dir=up')), 'order_dir must be one of the following values: asc, desc');
  });
});

describe('parameters that must be present or well-formed', () => {
  it.each(['sectors', 'groups', 'industries'])('/v1/%s requires order_by and order_dir', async (name) => {
    const r = await get(`/v1/${name}`);
    expect400(r, 'order_by should not be empty');
    expect((r.body.message as string[]).join(' ')).toContain('order_dir should not be empty');
    expect400(await get(`/v1/${name}?order_by=title`), 'order_dir should not be empty');
    expect400(await get(`/v1/${name}?order_by=nope&order_dir=asc`), 'order_by must be one of the following values');
  });

  it('sectors also sort by created_at, groups and industries do not', async () => {
    expect((await get('/v1/sectors?order_by=created_at&order_dir=desc')).status).toBe(200);
    expect400(await get('/v1/groups?order_by=created_at&order_dir=desc'), 'order_by must be one of');
  });

  it('string maxima: assets code 20, slug 100; projects search 100; charts search 255', async () => {
    expect((await get(`/v1/assets?code=${'A'.repeat(20)}`)).status).toBe(200);
    expect400(await get(`/v1/assets?code=${'A'.repeat(21)}`), 'code must be shorter than or equal to 20 characters');
    expect400(await get(`/v1/assets?slug=${'a'.repeat(101)}`), 'slug must be shorter than or equal to 100');
    expect400(await get(`/v1/projects?search=${'a'.repeat(101)}`), 'search must be shorter than or equal to 100');
    expect((await get(`/v1/charts?search=${'a'.repeat(255)}`)).status).toBe(200);
    expect400(await get(`/v1/charts?search=${'a'.repeat(256)}`), 'search must be shorter than or equal to 255');
  });

  it('enums: asset_class, assets order_by, sparkline, market-stats group_by', async () => {
    expect400(await get('/v1/assets?asset_class=stock'), 'asset_class must be one of the following values: token, equity, tokenizedStock');
    expect400(await get('/v1/assets?order_by=title'), 'order_by must be one of');
    expect400(await get('/v1/assets?sparkline=30d'), 'sparkline must be one of the following values: 7d');
    expect((await get('/v1/assets?sparkline=7d')).status).toBe(200);
    expect400(await get('/v1/market-stats?group_by=week'), 'group_by must be one of');
  });

  it('projects array filters hold at most 100 items and integer ids in range', async () => {
    const many = Array.from({ length: 101 }, (_, i) => `s${i}`).join(',');
    expect400(await get(`/v1/projects?slugs=${many}`), 'slugs must contain no more than 100 elements');
    expect((await get(`/v1/projects?slugs=${many.split(',').slice(0, 100).join(',')}`)).status).toBe(200);
    expect400(await get('/v1/projects?id=abc'), 'each value in id must be an integer number');
    expect400(await get('/v1/projects?parent_project_id=2147483648'), 'must not be greater than 2147483647');
    expect400(await get('/v1/glossary?id=-1'), 'each value in id must not be less than 0');
  });

  it('dates are strict YYYY-MM-DD; market-stats query must be JSON', async () => {
    for (const bad of ['2025-6-1', '2025-02-30', '01/06/2025', 'yesterday']) {
      expect400(await get(`/v1/market-stats?start_date=${bad}`), 'start_date must be a valid date');
      expect400(await get(`/v1/sec/filings?end_filing_date=${bad}`), 'end_filing_date must be a valid date');
    }
    expect400(await get('/v1/market-stats?query={nope'), 'query must be a json string');
    expect((await get(`/v1/market-stats?query=${encodeURIComponent('{"a":1}')}`)).status).toBe(200);
  });

  it('glossary status is a nullable boolean', async () => {
    expect400(await get('/v1/glossary?status=yes'), 'status must be a boolean value');
    for (const ok of ['true', 'false', 'null']) expect((await get(`/v1/glossary?status=${ok}`)).status).toBe(200);
  });

  it('metrics data requires at least one project', async () => {
    const id = (sb.records('metrics')[0] as { identifier: string }).identifier;
    expect400(await get(`/v1/metrics/${id}`), 'project should not be empty');
    expect400(await get(`/v1/metrics/${id}?project=`), 'project should not be empty');
  });

  it('chart data: limit 1..100000 default 10000; search and order_by at most 255 characters', async () => {
    const charts = sb.records('charts') as { id: number }[];
    const path = `/v1/charts/${charts[0].id}/data`;
    expect400(await get(`${path}?limit=100001`), 'limit must not be greater than 100000');
    expect400(await get(`${path}?order_by=${'x'.repeat(256)}`), 'order_by must be shorter than or equal to 255');
    expect400(await get(`${path}?select=${'x'.repeat(256)}`), 'each value in select must be shorter than or equal to 255');
    expect((await get(`${path}?limit=100000`)).status).toBe(200);
  });
});
