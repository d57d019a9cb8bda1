// @end-to-end
// The receiver against the sandbox's own webhook sender (spec signing, retry policy with back-off):
// every delivery lands exactly once across views, duplicate retries, storage failures and restarts.
import { createServer } from 'node:net';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMonitoringService, type DeliveryLog, type MonitoringService } from '../../sandbox/monitoring/index.js';
import { SteppedClock, WebhookSender } from '../../sandbox/webhooks/index.js';
import { startReceiver, type Receiver, type ReceiverOptions } from '../../src/receiver/index.js';
import type { Store } from '../../src/store/index.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { failDeliveryInserts } from './receiver-store.js';

const SECRET = 'whsec-sandbox-view-0';
const ROGUE = 'a-secret-the-receiver-does-not-know';
// Scales the spec's back-off (1 s, 2 s, 4 s, ...) and time-outs down; they run on the sandbox clock.
const TIME_FACTOR = 0.02;
const STILL = { updateFraction: 0, addFraction: 0, removeFraction: 0 };
const silent = pino({ level: 'silent' });

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Stored {
  id: string;
  view_id: string;
  body: string;
}

for (const dialect of dialects) {
  describe(`receiver with the sandbox sender (${dialect})`, () => {
    let t: TestStore;
    let svc: MonitoringService;
    let day = 20;
    let url: string;
    let views: string[];
    const receivers: Receiver[] = [];

    const start = (store: Store, port: number, extra: Partial<ReceiverOptions> = {}) =>
      startReceiver({ store, port, secrets: ['old-secret', SECRET], allowUnsignedViews: [views[1]], logger: silent, ...extra }).then(
        (r) => {
          receivers.push(r);
          return r;
        },
      );

    /** Moves the sandbox one day on: new developments trigger deliveries to the views they match. */
    const advance = () => {
      const change = svc.advance(new Date(Date.UTC(2026, 10, ++day)), { updateFraction: 0.02, addFraction: 0.05, removeFraction: 0 });
      expect(change.deliveries.length).toBeGreaterThan(0);
      return change;
    };

    /** Lets sandbox time pass (a day per step, no new data) until no delivery waits for a retry. */
    const drain = async () => {
      await svc.idle();
      while (svc.deliveries().some((d) => d.state === 'scheduled')) {
        svc.advance(new Date(Date.UTC(2026, 10, ++day)), STILL);
        await svc.idle();
      }
    };

    // One store per dialect for the file, emptied of what the receiver wrote before each case (the checks
    // read the deliveries, their views and the alerts): a PostgreSQL database per case cost more than that.
    beforeAll(async () => {
      t = await openTestStore(dialect);
    });
    afterAll(() => t?.cleanup());

    beforeEach(async () => {
      for (const table of ['alert_deliveries', 'alert_history', 'webhook_deliveries'] as const)
        await t.store.db.deleteFrom(table).execute();
      svc = createMonitoringService({
        // Scale 0.03 with the three views scale 0.3 has: some 25 deliveries a day, each view some (seed 11 left
        // a view without any at this scale); scale 0.1 cost the file 60% more CPU for the same cases.
        seed: 2,
        scale: 0.03,
        views: 3,
        profile: 'default',
        apiKey: 'k',
        now: () => new Date(Date.UTC(2026, 10, day)),
        webhooks: { timeFactor: TIME_FACTOR },
      });
      views = svc.views().map((v) => v.id);
      const port = await freePort();
      url = `http://127.0.0.1:${port}/webhooks`;
      // View 0 signs with a secret the receiver knows, view 1 sends unsigned (allowed for it
      // explicitly), view 2 signs with a secret the receiver does not know (a forger).
      svc.setAlertPolicy(views[0], { cadence: 'immediately', delivery_types: ['webhook'], webhook_url: url, webhook_secret: SECRET });
      svc.setAlertPolicy(views[1], { cadence: 'immediately', delivery_types: ['webhook'], webhook_url: url });
      svc.setAlertPolicy(views[2], { cadence: 'immediately', delivery_types: ['webhook'], webhook_url: url, webhook_secret: ROGUE });
    });

    afterEach(async () => {
      await svc.close();
      for (const r of receivers.splice(0)) await r.close();
    });

    /** Checks the store against the sender's log: each accepted delivery id once, each (delivery, view) pair and alert once. */
    async function expectExactlyOnce(log: DeliveryLog[]) {
      const accepted = log.filter((d) => d.viewId !== views[2]);
      expect(accepted.every((d) => d.state === 'delivered')).toBe(true);
      // The forger's deliveries are refused for good (401, not retried).
      const forged = log.filter((d) => d.viewId === views[2]);
      expect(forged.length).toBeGreaterThan(0);
      expect(forged.every((d) => d.state === 'failed' && d.attempts.at(-1)?.status === 401)).toBe(true);

      const stored = (await t.store.db.selectFrom('webhook_deliveries').select(['id', 'view_id', 'body']).execute()) as Stored[];
      expect(stored.map((s) => s.id).sort()).toEqual([...new Set(accepted.map((d) => d.id))].sort());
      // The body is the sender's bytes for that view, exactly.
      const bodies = new Set(accepted.map((d) => d.body));
      expect(stored.every((s) => bodies.has(s.body) && JSON.parse(s.body).data.view.id === s.view_id)).toBe(true);

      // An alert per (view, development), and every view a delivery id reached, each once.
      const alerts = await t.store.db.selectFrom('alert_history').select(['view_id', 'event_id', 'development_id']).execute();
      const data = (d: DeliveryLog) => JSON.parse(d.body).data;
      const expected = new Set(accepted.map((d) => `${d.viewId} ${data(d).event.id} ${data(d).latest_development.id}`));
      expect(alerts.map((a) => `${a.view_id} ${a.event_id} ${a.development_id}`).sort()).toEqual([...expected].sort());
      const pairs = await t.store.db.selectFrom('alert_deliveries').select(['delivery_id', 'view_id']).execute();
      expect(pairs.map((p) => `${p.delivery_id} ${p.view_id}`).sort()).toEqual(
        [...new Set(accepted.map((d) => `${d.id} ${d.viewId}`))].sort(),
      );
    }

    it('lands every delivery to several views exactly once, duplicate retries included', async () => {
      const receiver = await start(t.store, Number(new URL(url).port));
      advance();
      await svc.idle();
      const log = svc.deliveries();
      expect(new Set(log.map((d) => d.viewId)).size).toBe(3);
      await expectExactlyOnce(log);

      // The same deliveries again, as a sender that never saw the answers would retry them.
      const replay = new WebhookSender({ clock: new SteppedClock(), timeFactor: TIME_FACTOR });
      for (const d of log.filter((l) => l.viewId !== views[2])) {
        replay.enqueue({ id: d.id, viewId: d.viewId, url: d.url, body: d.body, secret: d.signed ? SECRET : undefined });
      }
      await replay.idle();
      expect(replay.deliveries().every((d) => d.state === 'delivered')).toBe(true);
      await replay.close();
      await expectExactlyOnce(log);
      expect(receiver.stats().duplicates).toBeGreaterThanOrEqual(log.length - log.filter((d) => d.viewId === views[2]).length);
    });

    it('answers 503 when the store fails, and the sender retries until the delivery lands', async () => {
      const restore = await failDeliveryInserts(t.store);
      await start(t.store, Number(new URL(url).port));
      advance();
      // The storage recovers once the sender has seen a failure.
      while (!svc.deliveries().some((d) => d.attempts.some((a) => a.status === 503)))
        await new Promise((resolve) => setTimeout(resolve, 5));
      await restore();
      await drain();
      const log = svc.deliveries();
      const retried = log.filter((d) => d.attempts.some((a) => a.status === 503));
      expect(retried.length).toBeGreaterThan(0);
      expect(retried.every((d) => d.attempts.at(-1)?.status === 200)).toBe(true);
      await expectExactlyOnce(log);
    });

    it('keeps every delivery exactly once across receiver restarts', async () => {
      const port = Number(new URL(url).port);
      const first = await start(t.store, port);
      advance();
      await svc.idle();
      await first.close();
      // Down: these first attempts are refused at the TCP level, and retried with back-off.
      advance();
      await svc.idle();
      expect(svc.deliveries().some((d) => d.state === 'scheduled')).toBe(true);
      const second = await start(t.store, port);
      await drain();
      const log = svc.deliveries();
      expect(log.some((d) => d.attempts[0].error !== undefined && d.state === 'delivered')).toBe(true);
      await expectExactlyOnce(log);
      expect(second.stats().received).toBeGreaterThan(0);
    });
  });
}
