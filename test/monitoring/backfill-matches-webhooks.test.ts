// @end-to-end
// A backfilled alert means what a webhook alert means. The sandbox sends its webhooks over a window of
// changing data (new developments, developments reclassified, events removed) to the receiver; a
// backfill alone into a fresh mirror over the same window must find at least 95% of the (view,
// development) pairs the webhooks delivered, with at most 5% that no webhook delivered. A backfill into
// the webhooks' own mirror then says 'both' for every pair the two agree on. SQLite and PostgreSQL.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAlertDaysCurrent } from '../helpers/alert-days.js';
import { viewsStream } from '../../src/catalog/monitoring.js';
import { startReceiver, type Receiver } from '../../src/receiver/index.js';
import type { Store } from '../../src/store/index.js';
import { runSync } from '../../src/sync/engine.js';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { fastClient, settings, silent } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const SECRET = 'whsec-backfill-window-0123456789';
const STEP_SECONDS = 6 * 3600;
const STEPS = 4;
// A day of change: a few developments reclassified and events withdrawn after their webhooks went out.
// Twice scale 0.6's fractions on half its events: as many deliveries, half the events each backfill reads.
const CHANGE = { updateFraction: 0.02, addFraction: 0.02, removeFraction: 0.01 };

/** `view|development` pairs of a mirror's alerts, those a webhook brought or those a backfill reconstructed in the window. */
async function pairs(store: Store, by: 'webhook' | 'reconstructed', window: { from: number; to: number }): Promise<Set<string>> {
  const rows = await store.db
    .selectFrom('alert_history')
    .select(['view_id', 'development_id', 'matched_at', 'webhook_at', 'reconstructed_at'])
    .execute();
  const inWindow = (t: unknown) => {
    const ms = new Date(t as string).getTime();
    return ms > window.from && ms <= window.to;
  };
  return new Set(
    rows
      .filter((r) => (by === 'webhook' ? r.webhook_at !== null : r.reconstructed_at !== null && inWindow(r.matched_at)))
      .map((r) => `${r.view_id}|${r.development_id}`),
  );
}

describe.each(dialects)('a backfill against the webhooks of a window on %s', (dialect) => {
  let sb: Sandbox;
  let hooked: TestStore;
  let fresh: TestStore;
  let receiver: Receiver;
  let sandboxMs = PINNED_START.getTime();
  let window: { from: number; to: number };
  let views: string[];

  const backfill = async (store: Store) => {
    const client = fastClient(sb);
    try {
      const result = await runSync({ client, store, logger: silent, settings: settings(), streams: [viewsStream({ views, full: true })] });
      expect([result.outcome, result.streams[0]?.error ?? null]).toEqual(['success', null]);
    } finally {
      await client.close();
    }
  };

  beforeAll(async () => {
    // Six views (scale 0.6's at seed 23 were of six kinds: all, a watchlist, a category from an importance,
    // governance, pre-TGE projects, an ecosystem, as many kinds as scale 1's ten at seed 21 had), over scale 0.3's
    // events: some 340 pairs delivered (380 at scale 0.6, 1,050 at scale 1).
    sb = await startSandbox({ start: PINNED_START, scale: 0.3, seed: 23, monitoringViews: 6, webhooks: { timeFactor: 0.01 } });
    hooked = await openTestStore(dialect);
    fresh = await openTestStore(dialect);
    receiver = await startReceiver({
      store: hooked.store,
      port: 0,
      secrets: [SECRET],
      logger: pino({ level: 'silent' }),
    });
    views = sb.monitoring.views().map((v) => v.id);
    for (const id of views)
      sb.monitoring.setAlertPolicy(id, {
        cadence: 'immediately',
        delivery_types: ['webhook'],
        webhook_url: receiver.url,
        webhook_secret: SECRET,
      });
    window = { from: sandboxMs, to: sandboxMs + STEPS * STEP_SECONDS * 1000 };
    for (let step = 0; step < STEPS; step++) {
      sandboxMs += STEP_SECONDS * 1000;
      await sb.advance({ seconds: STEP_SECONDS, ...CHANGE });
      await sb.monitoring.idle();
    }
  }, 300_000);
  afterAll(async () => {
    await receiver?.close();
    await sb?.close();
    await hooked?.cleanup();
    await fresh?.cleanup();
  });

  it('reconstructs at least 95% of the pairs the webhooks delivered, with at most 5% they did not', async () => {
    const sent = sb.monitoring.deliveries();
    expect(sent.length).toBeGreaterThan(100);
    const states = sent.map((d) => `${d.state}:${d.attempts.at(-1)?.status ?? d.attempts.at(-1)?.error}`);
    expect(new Set(states)).toEqual(new Set(['delivered:200']));
    const delivered = await pairs(hooked.store, 'webhook', window);
    expect(delivered).toEqual(new Set(sent.map((d) => `${d.viewId}|${JSON.parse(d.body).data.latest_development.id}`)));

    await backfill(fresh.store);
    const reconstructed = await pairs(fresh.store, 'reconstructed', window);
    const both = [...delivered].filter((p) => reconstructed.has(p)).length;
    const found = both / delivered.size;
    const extra = (reconstructed.size - both) / reconstructed.size;
    console.log(
      `${dialect}: ${views.length} views, webhooks delivered ${delivered.size} (view, development) pairs; the backfill alone ` +
        `reconstructed ${reconstructed.size} in the window: ${both} of the delivered (${(100 * found).toFixed(1)}%), ` +
        `${reconstructed.size - both} no webhook delivered (${(100 * extra).toFixed(1)}%)`,
    );
    expect(found).toBeGreaterThanOrEqual(0.95);
    expect(extra).toBeLessThanOrEqual(0.05);
  });

  it("marks the alerts a webhook delivered and the backfill reconstructed as 'both'", async () => {
    const delivered = await pairs(hooked.store, 'webhook', window);
    const reconstructed = await pairs(fresh.store, 'reconstructed', window);
    await backfill(hooked.store);
    const shown = await hooked.store.db.selectFrom('v_alerts').select(['view_id', 'development_id', 'known_by']).execute();
    const knownBy = new Map(shown.map((a) => [`${a.view_id}|${a.development_id}`, a.known_by]));
    for (const pair of delivered) expect([pair, knownBy.get(pair)]).toEqual([pair, reconstructed.has(pair) ? 'both' : 'webhook']);
    const counts = new Map<string, number>();
    for (const k of knownBy.values()) counts.set(String(k), (counts.get(String(k)) ?? 0) + 1);
    expect(counts.get('both')).toBe([...delivered].filter((p) => reconstructed.has(p)).length);
    expect(counts.has('event-match')).toBe(false);
  });

  it('v_alerts_per_day counts v_alerts on the mirror the webhooks and a backfill wrote, and on the one a backfill alone wrote', async () => {
    expect(await expectAlertDaysCurrent(hooked.store)).toBeGreaterThan(100);
    expect(await expectAlertDaysCurrent(fresh.store)).toBeGreaterThan(100);
  });
});
