// New developments from advance() trigger signed `monitoring_event` POSTs to the views whose alert
// policy is `immediately` + webhook; checked against a node:http receiver on 127.0.0.1.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMonitoringService, type MonitoringChange, type MonitoringService } from '../../sandbox/monitoring/index.js';

const SECRET = 'whsec-test';
let server: Server;
let base: string;
const received: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];
let s: MonitoringService;
let change: MonitoringChange;
let clock = new Date('2025-02-01T00:00:00Z');

function hasNull(value: unknown): boolean {
  if (value === null) return true;
  return typeof value === 'object' && Object.values(value as object).some(hasNull);
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(req.url === '/reject' ? 400 : 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  s = createMonitoringService({
    seed: 5,
    scale: 0.5,
    profile: 'default',
    apiKey: 'k',
    now: () => clock,
    webhooks: { timeFactor: 0.01, defaultPolicy: { cadence: 'immediately', delivery_types: ['webhook'], webhook_url: `${base}/default` } },
  });
  const views = s.views();
  // View 0 matches everything: signed. 1: unsigned. 2: daily (never posts). 3: the default policy. 4: none.
  s.setAlertPolicy(views[0].id, {
    cadence: 'immediately',
    delivery_types: ['webhook', 'email'],
    webhook_url: `${base}/all`,
    webhook_secret: SECRET,
  });
  s.setAlertPolicy(views[1].slug, { cadence: 'immediately', delivery_types: ['webhook'], webhook_url: `${base}/one` });
  s.setAlertPolicy(views[2].id, { cadence: 'daily', delivery_types: ['webhook'], webhook_url: `${base}/daily` });
  s.setAlertPolicy(views[4].id, null);
  for (const v of views.slice(5)) s.setAlertPolicy(v.id, { cadence: 'weekly', delivery_types: ['webhook'], webhook_url: `${base}/weekly` });
  clock = new Date('2025-02-02T00:00:00Z');
  change = s.advance(clock, { updateFraction: 0.02, addFraction: 0.02, removeFraction: 0 });
  await s.idle();
});

afterAll(async () => {
  await s.close();
  await new Promise((resolve) => server.close(resolve));
});

describe('webhook deliveries of new developments', () => {
  it('posts once per new development to the match-all view, signed, and only to immediately policies', () => {
    const all = received.filter((r) => r.path === '/all');
    expect(change.developments.added.length).toBeGreaterThan(0);
    expect(all.map((r) => JSON.parse(r.body).data.latest_development.id).sort()).toEqual([...change.developments.added].sort());
    expect(received.filter((r) => r.path === '/daily' || r.path === '/weekly')).toEqual([]);
    expect(received.every((r) => ['/all', '/one', '/default'].includes(r.path))).toBe(true);
    expect(received).toHaveLength(change.deliveries.length);
  });

  it('sends the spec headers and a valid signature only when a secret is set', () => {
    for (const r of received) {
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['user-agent']).toBe('ServiceCNS/1.0');
      if (r.path !== '/all') {
        expect(r.headers['x-webhook-signature']).toBeUndefined();
        continue;
      }
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(r.headers['x-webhook-signature'])) ?? [];
      expect(v1).toBe(createHmac('sha256', SECRET).update(`${t}.${r.body}`).digest('hex'));
    }
  });

  it('builds the envelope from the development, omitting unset optional fields (never null)', () => {
    for (const r of received) {
      const env = JSON.parse(r.body);
      expect(hasNull(env)).toBe(false);
      expect(env.type).toBe('monitoring_event');
      expect(env.timestamp).toBe('2025-02-02T00:00:00Z');
      const dev = s.development(env.data.latest_development.id)!;
      const latest = env.data.latest_development;
      expect(env.data.event).toEqual({ id: dev.event.id, title: dev.event.title });
      expect(latest.title).toBe(dev.title);
      expect(latest.summary).toBe(dev.summary);
      expect(latest.actionable).toBe(dev.actionable);
      expect(latest.started_at).toBe(dev.startedAt);
      expect(latest.created_at).toBe(latest.started_at);
      expect(latest.category ?? []).toEqual(dev.intelCategories);
      expect(latest.subcategory ?? []).toEqual(dev.intelSubcategories);
      expect(latest.importance).toBe(dev.importance === 'not-important' ? undefined : dev.importance);
      // Ongoing (ends after the alert) => ended_at omitted.
      expect(latest.ended_at).toBe(dev.endedAt <= env.timestamp ? dev.endedAt : undefined);
      expect(env.data.assets.map((a: any) => a.id)).toEqual(dev.assets.map((a) => a.id));
      for (const a of env.data.assets) expect(a.logo_url).toMatch(/^https:\/\//);
      const view = s.views().find((v) => v.id === env.data.view.id)!;
      expect(env.data.view).toEqual({ id: view.id, name: view.name });
    }
    expect(received.some((r) => JSON.parse(r.body).data.latest_development.ended_at === undefined)).toBe(true);
  });

  it('uses one delivery id per development across views, and logs what was sent', () => {
    const byDev = new Map<string, Set<string>>();
    for (const r of received) {
      const env = JSON.parse(r.body);
      const ids = byDev.get(env.data.latest_development.id) ?? new Set();
      ids.add(env.id);
      byDev.set(env.data.latest_development.id, ids);
    }
    expect([...byDev.values()].every((ids) => ids.size === 1)).toBe(true);
    expect(new Set([...byDev.values()].map((ids) => [...ids][0])).size).toBe(byDev.size);
    const log = s.deliveries();
    expect(log).toHaveLength(received.length);
    expect(log.every((l) => l.state === 'delivered' && l.attempts.length === 1 && l.attempts[0].status === 200)).toBe(true);
    expect(log.map((l) => l.body).sort()).toEqual(received.map((r) => r.body).sort());
    expect(JSON.stringify(log)).not.toContain(SECRET);
    const views = s.views();
    for (const [path, view] of [
      ['/one', views[1]],
      ['/default', views[3]],
    ] as const) {
      const queued = change.deliveries.filter((d) => d.viewId === view.id);
      expect(received.filter((r) => r.path === path)).toHaveLength(queued.length);
      expect(received.filter((r) => r.path === path).every((r) => JSON.parse(r.body).data.view.id === view.id)).toBe(true);
    }
    expect(change.deliveries.some((d) => d.viewId === views[3].id)).toBe(true);
    expect(change.deliveries.some((d) => d.viewId === views[4].id)).toBe(false);
  });

  it('validates policies and a permanent 4xx is logged as failed without retry', async () => {
    const v = s.views()[0];
    expect(() => s.setAlertPolicy(v.id, { cadence: 'immediately', delivery_types: ['webhook'] })).toThrow(/webhook_url/);
    expect(() => s.setAlertPolicy('no-such-view', null)).toThrow(/unknown monitoring view/);
    s.setAlertPolicy(v.id, { cadence: 'immediately', delivery_types: ['webhook'], webhook_url: `${base}/reject`, webhook_secret: SECRET });
    for (const other of s.views().slice(1)) s.setAlertPolicy(other.id, null);
    clock = new Date('2025-02-03T00:00:00Z');
    const next = s.advance(clock, { updateFraction: 0, addFraction: 0.01, removeFraction: 0 });
    await s.idle();
    const rejected = s.deliveries().filter((l) => l.url.endsWith('/reject'));
    expect(rejected).toHaveLength(next.developments.added.length);
    expect(rejected.every((l) => l.state === 'failed' && l.attempts.length === 1)).toBe(true);
  });
});
