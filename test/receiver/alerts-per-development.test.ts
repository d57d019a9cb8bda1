// One alert per (view, development), from webhooks and backfills alike (#24.1): one delivery id sent to
// several views is an alert and a (delivery, view) pair for each, a retry adds nothing, a second
// development of an event is a second alert, and a backfill then a webhook of one alert is one row that
// says both ways with both times. Over real HTTP into both stores (a SQLite file: the writer thread).
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { viewsStream } from '../../src/catalog/monitoring.js';
import { startReceiver, type Receiver } from '../../src/receiver/index.js';
import type { Store } from '../../src/store/index.js';
import { runSync } from '../../src/sync/engine.js';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { fastClient, settings, silent } from '../helpers/mirror.js';
import { expectAlertDaysCurrent } from '../helpers/alert-days.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { makeEnvelope, sign } from './webhook-fixtures.js';

const SECRET = 'whsec-alerts-0123456789';

async function deliver(url: string, envelope: object): Promise<number> {
  const body = JSON.stringify(envelope);
  const signature = sign(SECRET, body, Math.floor(Date.now() / 1000));
  const res = await request(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'x-webhook-signature': signature },
  });
  await res.body.dump();
  return res.statusCode;
}

const iso = (v: unknown) => (v === null ? null : new Date(v as string).toISOString());

describe.each(dialects)('alerts per (view, development) on %s', (dialect) => {
  let t: TestStore;
  let store: Store;
  let receiver: Receiver;
  let sb: Sandbox;

  beforeAll(async () => {
    t = await openTestStore(dialect);
    store = t.store;
    receiver = await startReceiver({ store, port: 0, secrets: [SECRET], logger: pino({ level: 'silent' }) });
    sb = await startSandbox({ start: PINNED_START, scale: 0.05, seed: 5 });
  });
  afterAll(async () => {
    await receiver?.close();
    await sb?.close();
    await t?.cleanup();
  });

  const alertsOf = (eventId: string) => store.db.selectFrom('alert_history').selectAll().where('event_id', '=', eventId).execute();
  const pairsOf = (deliveryId: string) =>
    store.db.selectFrom('alert_deliveries').selectAll().where('delivery_id', '=', deliveryId).execute();

  it('keeps every view of a shared delivery id: three views, three alerts and three pairs; the retry adds none', async () => {
    const first = makeEnvelope();
    const views = [first.data.view, { id: randomUUID(), name: 'Second' }, { id: randomUUID(), name: 'Third' }];
    const before = receiver.stats();
    for (const view of views) expect(await deliver(receiver.url, { ...first, data: { ...first.data, view } })).toBe(200);
    expect(await deliver(receiver.url, first)).toBe(200);

    const alerts = await alertsOf(first.data.event.id);
    expect(alerts.map((a) => a.view_id).sort()).toEqual(views.map((v) => v.id).sort());
    expect(new Set(alerts.map((a) => `${a.development_id}|${a.source}`))).toEqual(new Set([`${first.data.latest_development.id}|webhook`]));
    const pairs = await pairsOf(first.id);
    expect(pairs.map((p) => [p.view_id, p.view_name]).sort()).toEqual(views.map((v) => [v.id, v.name]).sort());
    const stored = await store.db.selectFrom('webhook_deliveries').select('id').where('id', '=', first.id).execute();
    expect(stored).toHaveLength(1);
    expect(receiver.stats().duplicates - before.duplicates).toBe(1);
  });

  it('a second development of one event leaves a second alert, with its own match time', async () => {
    const first = makeEnvelope();
    const second = structuredClone(first);
    second.id = randomUUID();
    second.timestamp = '2026-11-21T08:00:00.000Z';
    second.data.latest_development = { ...first.data.latest_development, id: randomUUID(), title: 'Funds recovered' };
    expect(await deliver(receiver.url, first)).toBe(200);
    expect(await deliver(receiver.url, second)).toBe(200);

    const alerts = await alertsOf(first.data.event.id);
    const byDevelopment = new Map(alerts.map((a) => [a.development_id, iso(a.matched_at)]));
    expect(byDevelopment).toEqual(
      new Map([
        [first.data.latest_development.id, first.timestamp],
        [second.data.latest_development.id, second.timestamp],
      ]),
    );
    const shown = await store.db
      .selectFrom('v_alerts')
      .select(['development_id', 'delivery_ids'])
      .where('event_id', '=', first.data.event.id)
      .execute();
    expect(new Map(shown.map((a) => [a.development_id, a.delivery_ids]))).toEqual(
      new Map([
        [first.data.latest_development.id, first.id],
        [second.data.latest_development.id, second.id],
      ]),
    );
  });

  it('a backfill then a webhook of the same (view, development) is one alert that says both, with both times', async () => {
    const view = sb.monitoring.views()[0]!;
    const client = fastClient(sb);
    try {
      const result = await runSync({
        client,
        store,
        logger: silent,
        settings: settings(),
        streams: [viewsStream({ views: [view.id], full: true })],
      });
      expect(result.outcome).toBe('success');
    } finally {
      await client.close();
    }
    const backfilled = await store.db.selectFrom('alert_history').selectAll().where('view_id', '=', view.id).execute();
    expect(backfilled.length).toBeGreaterThan(0);
    const alert = backfilled[0]!;
    expect([alert.source, alert.webhook_at, alert.backfill_at === null]).toEqual(['backfill', null, false]);

    const env = makeEnvelope({ viewId: view.id, viewName: view.name, eventId: alert.event_id, developmentId: alert.development_id });
    expect(await deliver(receiver.url, env)).toBe(200);
    expect(await deliver(receiver.url, env)).toBe(200);

    const after = await store.db.selectFrom('alert_history').selectAll().where('view_id', '=', view.id).execute();
    expect(after).toHaveLength(backfilled.length);
    const [shown] = await store.db
      .selectFrom('v_alerts')
      .selectAll()
      .where('view_id', '=', view.id)
      .where('development_id', '=', alert.development_id)
      .execute();
    expect(shown).toMatchObject({ source: 'backfill', arrived_by: 'both', known_by: 'both', delivery_id: env.id, delivery_ids: env.id });
    expect(iso(shown.backfill_at)).toBe(iso(alert.backfill_at));
    expect(iso(shown.webhook_at)).not.toBeNull();
    expect(iso(shown.webhook_at)! >= iso(shown.backfill_at)!).toBe(true);
    // The match time is now the service's own, the webhook's timestamp.
    expect(iso(shown.matched_at)).toBe(env.timestamp);
  });

  it('v_alerts_per_day counts v_alerts after the webhooks and the backfill, in the transactions that wrote them', async () => {
    expect(await expectAlertDaysCurrent(store)).toBeGreaterThan(5);
  });
});
