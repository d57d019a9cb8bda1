// @end-to-end
// True alert times: a webhook alert keeps the delivery's timestamp and the view's name (for a view the
// mirror does not follow), a backfilled alert the start of the development that raised it; both beside
// when the mirror learned of them, on both stores.
import { pino } from 'pino';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../../src/receiver/index.js';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { makeEnvelope, sign } from '../receiver/webhook-fixtures.js';
import { NO_DETAILS, settings, syncOnce } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

const SECRET = 'whsec-analyst-0123456789abcdef';

describe.each(dialects)('alert times on %s', (dialect) => {
  let t: TestStore;
  let receiver: Receiver;
  let sb: Sandbox;

  beforeAll(async () => {
    t = await openTestStore(dialect);
    receiver = await startReceiver({ store: t.store, port: 0, secrets: [SECRET], logger: pino({ level: 'silent' }) });
    sb = await startSandbox({ start: PINNED_START, scale: 0.05, seed: 9 });
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
    await t?.cleanup();
    await sb?.close();
  });

  it('a webhook alert: matched when the delivery says, named as the delivery names its view', async () => {
    const env = makeEnvelope({ viewName: 'Not configured here' });
    const body = JSON.stringify(env);
    const res = await request(receiver.url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'x-webhook-signature': sign(SECRET, body, Math.floor(Date.now() / 1000)) },
    });
    expect(res.statusCode).toBe(200);
    await res.body.dump();
    const alert = (await t.store.db
      .selectFrom('v_alerts')
      .selectAll()
      .where('event_id', '=', env.data.event.id)
      .executeTakeFirstOrThrow()) as Record<string, any>;
    expect(alert).toMatchObject({
      view_name: 'Not configured here',
      source: 'webhook',
      matched_at: env.timestamp,
      matched_on: env.timestamp.slice(0, 10),
    });
    expect(Date.parse(alert.learned_at)).toBeGreaterThan(Date.parse(env.timestamp));
  });

  it("a backfilled alert: matched when its development started (not on the sync's day), with the view's name", async () => {
    const views = sb.monitoring.views().slice(0, 2);
    // The events list and the views alone: what a backfilled alert is made of (no other stream, no detail).
    const monitoring = { ...settings().monitoring, views: views.map((v) => v.id), details: NO_DETAILS };
    const run = await syncOnce(t.store, sb, ['monitoring-events', 'monitoring-views'], { settings: { monitoring } });
    expect([run.outcome, run.streams.map((s) => s.error).filter(Boolean)]).toEqual(['success', []]);
    const alerts = (await t.store.db.selectFrom('v_alerts').selectAll().where('source', '=', 'backfill').execute()) as Record<
      string,
      any
    >[];
    expect(alerts.length).toBeGreaterThan(0);
    for (const a of alerts) {
      const dev = sb.monitoring.development(a.development_id)!;
      expect(a.matched_at).toBe(new Date(dev.startedAt).toISOString());
      expect(a.view_name).toBe(views.find((v) => v.id === a.view_id)!.name);
      expect(a.matched_at < a.learned_at).toBe(true);
    }
    // One time form in the base tables too: a backfilled alert's match time joins its development's start.
    const joined = await t.store.db
      .selectFrom('alert_history as a')
      .innerJoin('monitoring_developments as d', 'd.id', 'a.development_id')
      .select((eb) => [
        eb.fn.countAll().as('n'),
        eb.fn.sum(eb.case().when('a.matched_at', '=', eb.ref('d.started_at')).then(1).else(0).end()).as('same'),
      ])
      .where('a.source', '=', 'backfill')
      .executeTakeFirstOrThrow();
    expect(Number(joined.n)).toBeGreaterThan(0);
    expect(Number(joined.same)).toBe(Number(joined.n));
    const stored = (await t.store.db.selectFrom('alert_history').select(['view_name']).where('source', '=', 'backfill').execute()) as {
      view_name: string;
    }[];
    expect(new Set(stored.map((r) => r.view_name))).toEqual(
      new Set(views.filter((v) => alerts.some((a) => a.view_id === v.id)).map((v) => v.name)),
    );
  });
});
