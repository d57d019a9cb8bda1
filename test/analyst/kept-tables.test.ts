// @end-to-end
// The tables the triggers keep (alert_days under v_alerts_per_day, the asset crosswalk) equal a count
// from scratch after every way rows arrive, on both stores: a sync with monitoring views (event-match
// alerts), webhooks through the receiver, a backfill, a day of changes synced with history pruned, and
// a copy to the other store (which once counted every alert twice on PostgreSQL: the copied alert_days
// rows, then the triggers again for each copied alert). Scale 0.04 with 3 views (some 540 alerts over
// several days and views, 47 crosswalk rows, some 30 webhook deliveries): a recount agrees or not at any
// size; scale 1 cost the suite 80 CPU-seconds, scale 0.3 nine, scale 0.1 five. No development's detail is
// fetched (NO_DETAILS): alerts and the crosswalk come from the lists, and the 3,300 detail requests were
// most of each sync's cost.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { viewsStream } from '../../src/catalog/monitoring.js';
import { copyStore } from '../../src/copy/copy-store.js';
import { startReceiver, type Receiver } from '../../src/receiver/index.js';
import type { Store } from '../../src/store/index.js';
import { runSync } from '../../src/sync/engine.js';
import { pruneHistory } from '../../src/sync/prune-history.js';
import { expectKeptTablesCurrent } from '../helpers/kept-tables.js';
import { fastClient, NO_DETAILS, settings, silent, syncOnce } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const SECRET = 'whsec-kept-tables-0123456789abcdef';
const STREAMS = ['assets', 'token-unlocks', 'monitoring-events', 'monitoring-views'];
const STEP_SECONDS = 6 * 3600;
const CHANGE = { updateFraction: 0.02, addFraction: 0.02, removeFraction: 0.01 };
// A first sync and a copy of it, on a shared two-core machine.
const LONG = 600_000;

describe.each(dialects)('the tables triggers keep, on %s', (dialect) => {
  let sb: Sandbox;
  let mirror: TestStore;
  let receiver: Receiver;
  let views: string[];
  const opened: TestStore[] = [];
  const sync = async (store: Store) => {
    const result = await syncOnce(store, sb, STREAMS, {
      settings: { monitoring: { ...settings().monitoring, views, details: NO_DETAILS } },
    });
    expect([result.outcome, result.streams.map((s) => s.error).filter(Boolean)]).toEqual(['success', []]);
  };

  beforeAll(async () => {
    sb = await startSandbox({ start: PINNED_START, scale: 0.04, seed: 42, monitoringViews: 3, webhooks: { timeFactor: 0.01 } });
    mirror = await openTestStore(dialect);
    receiver = await startReceiver({ store: mirror.store, port: 0, secrets: [SECRET], logger: pino({ level: 'silent' }) });
    views = sb.monitoring.views().map((v) => v.id);
  }, 300_000);
  afterAll(async () => {
    await receiver?.close();
    await sb?.close();
    await mirror?.cleanup();
    for (const t of opened) await t.cleanup();
  });

  it(
    'after a sync that matches events to views',
    async () => {
      await sync(mirror.store);
      expect((await expectKeptTablesCurrent(mirror.store)).alerts).toBeGreaterThan(300);
    },
    LONG,
  );

  it(
    'after webhooks through the receiver',
    async () => {
      for (const id of views)
        sb.monitoring.setAlertPolicy(id, {
          cadence: 'immediately',
          delivery_types: ['webhook'],
          webhook_url: receiver.url,
          webhook_secret: SECRET,
        });
      for (let step = 0; step < 2; step++) {
        await sb.advance({ seconds: STEP_SECONDS, ...CHANGE });
        await sb.monitoring.idle();
      }
      expect(sb.monitoring.deliveries().length).toBeGreaterThan(20);
      await expectKeptTablesCurrent(mirror.store);
    },
    LONG,
  );

  it(
    'after a backfill',
    async () => {
      const client = fastClient(sb);
      try {
        const result = await runSync({
          client,
          store: mirror.store,
          logger: silent,
          settings: settings(),
          streams: [viewsStream({ views, full: true })],
        });
        expect([result.outcome, result.streams[0]?.error ?? null]).toEqual(['success', null]);
      } finally {
        await client.close();
      }
      await expectKeptTablesCurrent(mirror.store);
    },
    LONG,
  );

  it(
    'after a day of changes synced and the history pruned',
    async () => {
      await sb.advance({ seconds: 86_400, ...CHANGE });
      await sb.monitoring.idle();
      await sync(mirror.store);
      await mirror.store.db
        .insertInto('history_settings')
        .values({ table_name: 'assets', enabled: mirror.store.adapter.toDb(true) as never, retention_days: 0 })
        .execute();
      expect(await pruneHistory(mirror.store.db, new Date(Date.now() + 86_400_000))).toBeGreaterThan(0);
      await expectKeptTablesCurrent(mirror.store);
    },
    LONG,
  );

  it(
    'after a copy to the other store',
    async () => {
      const target = await openTestStore(dialect === 'sqlite' ? 'postgres' : 'sqlite');
      opened.push(target);
      const copied = await copyStore(mirror.store, target.store);
      expect(copied.mismatch).toBeNull();
      const [source, copy] = [await expectKeptTablesCurrent(mirror.store), await expectKeptTablesCurrent(target.store)];
      expect(copy).toEqual(source);
    },
    LONG,
  );
});
