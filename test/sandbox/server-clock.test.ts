// Change over time: advancing the clock updates, adds and removes records, and the change report says
// exactly which (checked against a diff of what the API serves before and after). Also determinism
// by seed, the page cache's invalidation, and the /_sandbox control API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

type Rec = Record<string, any>;
const KEY_OF: Record<string, string> = { 'sec-filings': 'accession_number' };

function byKey(resource: string, records: unknown[]): Map<unknown, string> {
  const key = KEY_OF[resource] ?? 'id';
  return new Map((records as Rec[]).map((r) => [r[key], JSON.stringify(r)]));
}

async function get(sb: Sandbox, path: string, headers: Record<string, string> = { 'x-api-key': sb.apiKey }) {
  const res = await fetch(sb.url + path, { headers });
  return { status: res.status, text: await res.text() };
}

describe('clock advances', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ start: PINNED_START, scale: 0.5, seed: 3 });
  });
  afterAll(async () => {
    await sb.close();
  });

  it('reports exactly the records that changed, appeared and disappeared, per resource', async () => {
    const resources = ['assets', 'projects', 'chains', 'glossary', 'transparency', 'metrics', 'sec-filings', 'charts', 'sectors'];
    const before = Object.fromEntries(resources.map((r) => [r, byKey(r, sb.records(r))]));
    const report = await sb.advance({ seconds: 3600, updateFraction: 0.05, addFraction: 0.02, removeFraction: 0.01 });
    expect(Date.parse(report.to) - Date.parse(report.from)).toBe(3600_000);
    for (const r of resources) {
      const after = byKey(r, sb.records(r));
      const added = [...after.keys()].filter((k) => !before[r].has(k));
      const removed = [...before[r].keys()].filter((k) => !after.has(k));
      const changed = [...after.keys()].filter((k) => before[r].has(k) && before[r].get(k) !== after.get(k));
      const c = report.resources[r];
      expect(new Set(c.added), `${r} added`).toEqual(new Set(added));
      expect(new Set(c.removed), `${r} removed`).toEqual(new Set(removed));
      // Updated records all changed; embedded relations (a project's asset, ...) may change others too.
      for (const k of c.updated) expect(changed, `${r} updated ${String(k)}`).toContain(k);
      expect(r === 'sectors' || c.updated.length > 0, `${r} updated some`).toBe(true); // sectors may change none
      // Resources that embed no other resource's changing values change exactly as reported.
      if (['glossary', 'transparency', 'metrics', 'sec-filings', 'charts', 'sectors'].includes(r)) {
        expect(new Set(changed), `${r} changed`).toEqual(new Set(c.updated));
      }
    }
    expect(report.resources.assets.updated.length).toBe(Math.round(before.assets.size * 0.05));
  });

  it('updated records carry the new time in updated_at; added ones appear; removed ones answer 404', async () => {
    const report = await sb.advance({ seconds: 60, updateFraction: 0.02, addFraction: 0.01, removeFraction: 0.01 });
    const now = Date.parse(report.to) / 1000;
    const assets = new Map((sb.records('assets') as Rec[]).map((a) => [a.id, a]));
    for (const id of report.resources.assets.updated) expect(assets.get(id)!.updated_at).toBe(now);
    for (const id of report.resources.assets.added) expect(assets.get(id)!.updated_at).toBe(now);
    const gone = report.resources.assets.removed[0];
    expect((await get(sb, `/v1/assets/${gone}`)).status).toBe(404);
    const added = report.resources.assets.added[0];
    expect((await get(sb, `/v1/assets/${added}`)).status).toBe(200);
    const filing = report.resources['sec-filings'].added[0] as string;
    expect(JSON.parse((await get(sb, `/v1/sec/filings/${filing}`)).text).filing_date).toBe(report.to.slice(0, 10));
  });

  it('market stats gain a row per new day and update the day in progress', async () => {
    const before = sb.records('market-stats') as Rec[];
    const report = await sb.advance({ seconds: 2 * 86400, updateFraction: 0 });
    const after = sb.records('market-stats') as Rec[];
    expect(after.length - before.length).toBe(2);
    expect(new Set(report.resources['market-stats'].added)).toEqual(new Set(after.slice(0, 2).map((r) => r.id)));
    expect(report.resources['market-stats'].updated).toEqual([before[0].id]);
    expect(after.find((r) => r.id === before[0].id)).not.toEqual(before[0]);
    expect(after.slice(3)).toEqual(before.slice(1)); // past days are final
  });

  it('serves fresh pages after an advance (the page cache is per epoch)', async () => {
    const path = '/v1/assets?limit=100&expand=price';
    const first = await get(sb, path);
    expect((await get(sb, path)).text).toBe(first.text);
    await sb.advance({ seconds: 60, updateFraction: 0.5 });
    expect((await get(sb, path)).text).not.toBe(first.text);
  });

  it('rejects invalid advances', async () => {
    await expect(sb.advance({ seconds: -1 })).rejects.toThrow(/seconds/);
    await expect(sb.advance({ seconds: 1, updateFraction: 2 })).rejects.toThrow(/fractions/);
  });
});

describe('determinism', () => {
  it('the same seed serves the same bytes; another seed serves other data', async () => {
    const [a, b, c] = await Promise.all([
      startSandbox({ start: PINNED_START, seed: 11, scale: 0.2 }),
      startSandbox({ start: PINNED_START, seed: 11, scale: 0.2 }),
      startSandbox({ start: PINNED_START, seed: 12, scale: 0.2 }),
    ]);
    try {
      for (const path of ['/v1/assets?expand=price,market_cap', '/v1/projects?limit=50', '/v1/sec/filings', '/v1/charts']) {
        expect((await get(b, path)).text).toBe((await get(a, path)).text);
        expect((await get(c, path)).text).not.toBe((await get(a, path)).text);
      }
      const [ra, rb] = await Promise.all([a.advance({ seconds: 100 }), b.advance({ seconds: 100 })]);
      expect(rb.resources).toEqual(ra.resources);
      expect((await get(b, '/v1/assets?expand=price')).text).toBe((await get(a, '/v1/assets?expand=price')).text);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });
});

describe('the start', () => {
  it('is now unless pinned, to the second; a pinned start serves the same bytes as before', async () => {
    const before = Math.floor(Date.now() / 1000) * 1000;
    const unpinned = startSandbox({ scale: 0.1 }); // unpinned: the default start is what this test checks
    const [now, pinned] = await Promise.all([unpinned, startSandbox({ scale: 0.1, start: PINNED_START })]);
    try {
      const t = now.now().getTime();
      expect(t % 1000).toBe(0);
      expect(t).toBeGreaterThanOrEqual(before);
      expect(t).toBeLessThanOrEqual(Date.now());
      expect(pinned.now().toISOString()).toBe('2025-06-01T12:00:00.000Z');
      // Generated records date from before the start, whichever it is.
      const latest = (sb: Sandbox) => Math.max(...(sb.records('assets') as Rec[]).map((a) => Number(a.updated_at ?? 0)));
      expect(latest(now)).toBeLessThan(t / 1000);
      expect(latest(now)).toBeGreaterThan(t / 1000 - 30 * 86400);
    } finally {
      await Promise.all([now.close(), pinned.close()]);
    }
  });
});

describe('control endpoints', () => {
  it('are off unless enabled', async () => {
    const sb = await startSandbox({ start: PINNED_START, scale: 0.1 });
    try {
      expect((await get(sb, '/_sandbox/clock')).status).toBe(404);
    } finally {
      await sb.close();
    }
  });

  it('drive the clock, chaos and the request counter over HTTP, behind the API key', async () => {
    const sb = await startSandbox({ start: PINNED_START, scale: 0.1, control: true });
    const call = async (method: string, path: string, body?: unknown, key = sb.apiKey) => {
      const res = await fetch(sb.url + path, {
        method,
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    try {
      expect((await call('GET', '/_sandbox/clock', undefined, 'wrong')).status).toBe(401);
      const t0 = (await call('GET', '/_sandbox/clock')).body.now;
      const report = (await call('POST', '/_sandbox/advance', { seconds: 120, updateFraction: 0.1 })).body;
      expect(Date.parse(report.to) - Date.parse(t0)).toBe(120_000);
      expect(report.resources.assets.updated.length).toBeGreaterThan(0);
      expect((await call('POST', '/_sandbox/advance', {})).status).toBe(400);
      await call('DELETE', '/_sandbox/requests');
      await get(sb, '/v1/assets?limit=1');
      await get(sb, '/health');
      expect((await call('GET', '/_sandbox/requests')).body).toEqual({ count: 1 });
      expect((await call('PUT', '/_sandbox/chaos', { spec: '5xx=1' })).body).toEqual({ rate5xx: 1 });
      expect([500, 503]).toContain((await get(sb, '/v1/assets?limit=1')).status);
      await call('DELETE', '/_sandbox/chaos');
      expect((await get(sb, '/v1/assets?limit=1')).status).toBe(200);
      expect((await call('GET', '/_sandbox/records/glossary')).body).toEqual(sb.records('glossary'));
    } finally {
      await sb.close();
    }
  });
});
