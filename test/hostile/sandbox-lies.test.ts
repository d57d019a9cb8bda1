// The sandbox's lies, as a client sees them over HTTP: each rewrites only the lists under its path, leaves
// the counts the page reports alone, and a bad lie is refused in one line.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

let sb: Sandbox;

async function page(path: string, n: number, limit = 10): Promise<{ ids: string[]; total: unknown }> {
  const res = await fetch(`${sb.url}${path}?page=${n}&limit=${limit}`, { headers: { 'x-api-key': sb.apiKey } });
  const body = (await res.json()) as { data: { id: unknown }[]; total: unknown };
  return { ids: body.data.map((r) => String(r.id)), total: body.total };
}

beforeAll(async () => {
  sb = await startSandbox({ start: PINNED_START, scale: 1, seed: 2 });
});
afterEach(() => sb.setChaos(null));
afterAll(async () => {
  await sb.close();
});

describe('sandbox lies', () => {
  it('empty, cut, duplicate: the pages change, the reported total does not, other paths are honest', async () => {
    const honest = [await page('/v1/charts', 1), await page('/v1/charts', 2)];
    const chains = await page('/v1/chains', 1);
    sb.setChaos({ lies: { empty: { path: '/v1/charts' } } });
    expect(await page('/v1/charts', 1)).toEqual({ ids: [], total: honest[0]!.total });
    expect(await page('/v1/chains', 1)).toEqual(chains);
    sb.setChaos({ lies: { cut: { path: '/v1/charts', afterRecords: 14 } } });
    expect([(await page('/v1/charts', 1)).ids, (await page('/v1/charts', 2)).ids]).toEqual([honest[0]!.ids, honest[1]!.ids.slice(0, 4)]);
    expect((await page('/v1/charts', 3)).ids).toEqual([]);
    sb.setChaos({ lies: { duplicate: { path: '/v1/charts', page: 2 } } });
    const [first, ...rest] = honest[1]!.ids;
    expect((await page('/v1/charts', 2)).ids).toEqual([first, first, ...rest.slice(1)]);
  });

  it('drift: once the page is served, the first record is gone and every page slides by one', async () => {
    const [one, two, three] = [(await page('/v1/charts', 1)).ids, (await page('/v1/charts', 2)).ids, (await page('/v1/charts', 3)).ids];
    sb.setChaos({ lies: { drift: { path: '/v1/charts', afterPage: 1 } } });
    expect((await page('/v1/charts', 1)).ids).toEqual(one);
    expect((await page('/v1/charts', 2)).ids).toEqual([...two.slice(1), three[0]]);
    expect((await page('/v1/charts', 1)).ids).toEqual([...one.slice(1), two[0]]);
  });

  it('renameIds changes string ids only; a lie without a path is refused', async () => {
    const path = '/token-unlocks/v1/assets';
    const get = async () =>
      (
        (await (await fetch(`${sb.url}${path}`, { headers: { 'x-service-api-key': sb.apiKey } })).json()) as { data: { id: string }[] }
      ).data.map((r) => r.id);
    const ids = await get();
    sb.setChaos({ lies: { renameIds: { path, how: 'upper' } } });
    expect(await get()).toEqual(ids.map((id) => id.toUpperCase()));
    sb.setChaos({ lies: { renameIds: { path, how: 'space' } } });
    expect(await get()).toEqual(ids.map((id) => `${id} `));
    expect(() => sb.setChaos({ lies: { empty: { path: 'v1/charts' } } })).toThrow('every chaos lie needs a path starting with /');
  });
});
