// Deliveries for views the mirror does not mirror are refused (403, nothing stored, no detail request
// queued), and with secrets bound to views a delivery signed with another view's secret is refused
// (401); views are named by id or by slug, the slug resolved through the mirrored monitoring_views.
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../../src/receiver/index.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { makeEnvelope, sign } from './webhook-fixtures.js';

const ALERTS = randomUUID(); // configured by id
const TREASURY = randomUUID(); // configured by slug
const OTHER = randomUUID(); // not configured
const SHARED = 'whsec-shared';
const ALERTS_OWN = 'whsec-alerts==';
const TREASURY_OWN = 'whsec-treasury';

async function deliver(url: string, viewId: string, secret: string): Promise<number> {
  const body = JSON.stringify(makeEnvelope({ viewId }));
  const res = await request(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'x-webhook-signature': sign(secret, body, Math.floor(Date.now() / 1000)) },
  });
  await res.body.text();
  return res.statusCode;
}

for (const dialect of dialects) {
  describe(`deliveries checked against the configured views and their secrets (${dialect})`, () => {
    let t: TestStore;
    let receiver: Receiver;
    beforeAll(async () => {
      t = await openTestStore(dialect);
      await t.store.db
        .insertInto('monitoring_views')
        .values({
          id: TREASURY,
          slug: 'treasury-moves',
          name: 'Treasury',
          raw: '{}',
          row_hash: 'x',
          first_seen_at: new Date().toISOString(),
          synced_at: new Date().toISOString(),
        } as never)
        .execute();
      receiver = await startReceiver({
        store: t.store,
        port: 0,
        views: [ALERTS, 'treasury-moves'],
        secrets: { shared: [SHARED], byView: { [ALERTS]: [ALERTS_OWN], 'treasury-moves': [TREASURY_OWN] } },
        logger: pino({ level: 'silent' }),
      });
    });
    afterAll(async () => {
      await receiver?.close();
      await t?.cleanup();
    });

    it('takes each view signed with its own secret, by id or by slug', async () => {
      expect(await deliver(receiver.url, ALERTS, ALERTS_OWN)).toBe(200);
      expect(await deliver(receiver.url, TREASURY, TREASURY_OWN)).toBe(200);
    });

    it("refuses a view signed with another view's secret, or with a shared one where the view has its own", async () => {
      expect(await deliver(receiver.url, ALERTS, TREASURY_OWN)).toBe(401);
      expect(await deliver(receiver.url, TREASURY, ALERTS_OWN)).toBe(401);
      expect(await deliver(receiver.url, ALERTS, SHARED)).toBe(401);
    });

    it('refuses a view that is not configured, whatever signs it, and stores nothing of it', async () => {
      expect(await deliver(receiver.url, OTHER, SHARED)).toBe(403);
      expect(await deliver(receiver.url, OTHER, ALERTS_OWN)).toBe(403);
      const stored = await t.store.db.selectFrom('webhook_deliveries').select('view_id').execute();
      expect(new Set(stored.map((r) => r.view_id))).toEqual(new Set([ALERTS, TREASURY]));
      expect(receiver.stats().refused).toMatchObject({ view_not_configured: 2, wrong_view_secret: 3 });
    });
  });
}
