// The monitoring and token-unlock endpoints over real HTTP through startSandbox, and a webhook
// alert triggered by the sandbox's own advance().
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

let sandbox: Sandbox;
let receiver: Server;
const bodies: string[] = [];

async function get(path: string, key: string | null = sandbox.apiKey) {
  const res = await request(`${sandbox.url}${path}`, { headers: key === null ? {} : { 'X-Service-API-Key': key } });
  return { status: res.statusCode, type: String(res.headers['content-type']), body: (await res.body.json()) as any };
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  sandbox = await startSandbox({ start: PINNED_START, seed: 8, scale: 0.1, webhooks: { timeFactor: 0.01 } });
});

afterAll(async () => {
  await sandbox?.close();
  await new Promise((resolve) => receiver.close(resolve));
});

describe('monitoring over HTTP', () => {
  it('serves events, categories, views and developments as JSON envelopes', async () => {
    const events = await get('/monitoring/v2/events?limit=3&intelCategories=tokenomics,performance');
    expect(events.status).toBe(200);
    expect(events.type).toContain('application/json');
    const direct = sandbox.monitoring.handle({
      path: '/monitoring/v2/events',
      query: new URLSearchParams('limit=3&intelCategories=tokenomics,performance'),
      headers: { 'x-service-api-key': sandbox.apiKey },
    });
    expect(events.body).toEqual(JSON.parse(JSON.stringify(direct!.body)));
    expect((await get('/monitoring/v2/categories')).body.data).toHaveLength(11);
    const view = sandbox.monitoring.views()[0];
    expect((await get(`/monitoring/v2/monitoring-views/${view.slug}`)).body.data.id).toBe(view.id);
    const dev = events.body.data[0].developments[0];
    expect((await get(`/monitoring/v2/developments/${dev.id}`)).body.data.id).toBe(dev.id);
    expect(await get('/monitoring/v2/developments/00000000-0000-4000-8000-000000000000')).toMatchObject({
      status: 404,
      body: { data: null },
    });
    expect(await get(`/monitoring/v2/events?eventIds=bogus`)).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('"bogus"'), data: null },
    });
  });

  it('rejects bad credentials: token unlocks with "invalid auth mechanism", monitoring with its envelope', async () => {
    expect(await get('/token-unlocks/v1/assets', null)).toMatchObject({
      status: 401,
      body: { error: 'invalid auth mechanism', data: null },
    });
    expect(await get('/monitoring/v2/events', 'wrong')).toMatchObject({ status: 401, body: { data: null } });
    const unlocks = await get('/token-unlocks/v1/assets?page=2&limit=1');
    expect(unlocks.status).toBe(200);
    expect(unlocks.body.data).toHaveLength(sandbox.monitoring.tokenUnlockAssets().length);
  });

  it('posts a webhook for each new development when the sandbox advances', async () => {
    const view = sandbox.monitoring.views()[0];
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    sandbox.monitoring.setAlertPolicy(view.id, { cadence: 'immediately', delivery_types: ['webhook'], webhook_url: url });
    const report = await sandbox.advance({ seconds: 3600, addFraction: 0.02, updateFraction: 0, removeFraction: 0 });
    await sandbox.monitoring.idle();
    const added = report.monitoring.developments.added;
    expect(added.length).toBeGreaterThan(0);
    expect(bodies.map((b) => JSON.parse(b).data.latest_development.id).sort()).toEqual([...added].sort());
  });
});
