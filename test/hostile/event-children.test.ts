// Children follow their parents: after a full pass, a removed event's assets, categories and subcategories
// are gone with it (those tables have no deleted_at), on both stores.
import { describe, expect, it } from 'vitest';
import { monitoringParams } from '../../src/catalog/query-params.js';
import { syncOnce } from '../helpers/mirror.js';
import { dialects } from '../helpers/stores.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { sandboxWithStore } from '../helpers/sandbox-store.js';

const CHILDREN = ['monitoring_event_assets', 'monitoring_event_categories', 'monitoring_event_subcategories'];

describe.each(dialects)('children of removed events (%s)', (dialect) => {
  const fx = sandboxWithStore(dialect, { start: PINNED_START, scale: 0.05, seed: 7 });

  it('deletes the child rows of events a full pass no longer sees, and keeps the others', async () => {
    const settings = {
      mode: 'full' as const,
      monitoring: { views: [], events: {}, tokenUnlocks: {}, fullPassEveryHours: 24, params: monitoringParams() },
      maxDeleteShare: 0.5, // 10% removed at once would otherwise wait for a second pass (held-deletions tests)
    };
    expect((await syncOnce(fx.t.store, fx.sandbox, ['monitoring-events'], { settings })).outcome).toBe('success');
    const removed = (await fx.sandbox.advance({ seconds: 86_400, updateFraction: 0, addFraction: 0, removeFraction: 0.1 })).monitoring
      .events.removed;
    expect(removed.length).toBeGreaterThan(0);
    const before = await Promise.all(
      CHILDREN.map((table) => fx.t.store.db.selectFrom(table).select('event_id').where('event_id', 'in', removed).execute()),
    );
    expect(before.flat().length).toBeGreaterThan(0); // the removed events had children

    expect((await syncOnce(fx.t.store, fx.sandbox, ['monitoring-events'], { settings })).outcome).toBe('success');
    for (const table of CHILDREN) {
      expect(await fx.t.store.db.selectFrom(table).select('event_id').where('event_id', 'in', removed).execute()).toEqual([]);
    }
    const live = new Set(fx.sandbox.monitoring.events().map((e) => e.id));
    const assets = await fx.t.store.db.selectFrom('monitoring_event_assets').select('event_id').execute();
    expect(assets.length).toBe(fx.sandbox.monitoring.events().reduce((n, e) => n + e.assets.length, 0));
    expect(assets.every((a) => live.has(String(a.event_id)))).toBe(true);
  });
});
