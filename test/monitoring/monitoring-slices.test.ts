// @end-to-end
// A user mirroring part of the data: events filters from configuration reach the endpoint under the
// catalog's parameter names; token-unlock filters scope deletions to what they cover; a typo in a
// filter name is a config error, not a silent full mirror.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import type { MonitoringSettings } from '../../src/sync/context.js';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { NO_DETAILS, syncOnce } from '../helpers/mirror.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { liveRaw, rowsOf } from './monitoring-fixtures.js';
import { monitoringParams } from '../../src/catalog/query-params.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

const LEVELS = ['not-important', 'low', 'medium', 'high'];

describe.each(dialects)('mirroring a slice on %s', (dialect) => {
  let sb: Sandbox;
  let t: TestStore;
  let store: Store;

  const sync = (streams: string[], m: Partial<MonitoringSettings>) =>
    syncOnce(store, sb, streams, {
      settings: {
        monitoring: {
          views: [],
          events: {},
          tokenUnlocks: {},
          fullPassEveryHours: 24,
          params: monitoringParams(),
          // The developments' rows come with their events; their details (a request each) are read by none of these cases.
          details: NO_DETAILS,
          ...m,
        },
        // 20% removed at once is beyond maxDeleteShare, which would hold it back (held-deletions tests).
        maxDeleteShare: 0.5,
      },
    });

  beforeAll(async () => {
    sb = await startSandbox({ start: PINNED_START, scale: 0.1, seed: 5 });
    t = await openTestStore(dialect);
    store = t.store;
  });
  afterAll(async () => {
    await t?.cleanup();
    await sb?.close();
  });

  it('mirrors only the events the configured filters select, with their developments', async () => {
    const categories = ['security_and_hacks', 'tokenomics', 'token_listing'];
    const result = await sync(['monitoring-events'], { events: { minimumImportance: 'medium', intelCategories: categories } });
    expect(result.outcome).toBe('success');
    const wanted = sb.monitoring
      .events()
      .filter((e) => LEVELS.indexOf(e.importance) >= LEVELS.indexOf('medium') && e.intelCategories.some((c) => categories.includes(c)));
    expect(wanted.length).toBeGreaterThan(0);
    expect(wanted.length).toBeLessThan(sb.monitoring.events().length);
    expect(await liveRaw(store, 'monitoring_events')).toEqual(new Map(wanted.map((e) => [e.id, e])));
    const devs = (await rowsOf(store, 'monitoring_developments')).map((r) => String(r.id)).sort();
    expect(devs).toEqual(wanted.flatMap((e) => e.developments.map((d) => d.id)).sort());
  });

  it('an unknown filter name fails the stream with the known names', async () => {
    const result = await sync(['monitoring-events', 'token-unlocks'], {
      events: { minImportance: 'high' },
      tokenUnlocks: { category: 'x' },
    });
    const [unlocks, events] = ['token-unlocks', 'monitoring-events'].map((n) => result.streams.find((s) => s.stream === n)!);
    expect(events.outcome).toBe('failed');
    expect(events.error).toContain('unknown filter "minImportance"');
    expect(events.error).toContain('minimumImportance');
    expect(unlocks.error).toContain('unknown filter "category"; known filters: assetIds, categories, sectors, tags');
  });

  it('token-unlock deletions stay within what the filters cover', async () => {
    expect((await sync(['token-unlocks'], {})).outcome).toBe('success');
    const before = new Map(sb.monitoring.tokenUnlockAssets().map((a) => [a.id, a]));
    const removed = (await sb.advance({ seconds: 3600, updateFraction: 0, addFraction: 0, removeFraction: 0.2 })).monitoring
      .tokenUnlockAssets.removed;
    const category = before.get(removed[0])!.category;
    const inside = removed.filter((id) => before.get(id)!.category === category);
    const outside = removed.filter((id) => before.get(id)!.category !== category);
    expect(outside.length).toBeGreaterThan(0);

    const result = await sync(['token-unlocks'], { tokenUnlocks: { categories: [category.toUpperCase()] } });
    expect(result.streams[0].deleted).toBe(inside.length);
    const rows = await rowsOf(store, 'token_unlock_assets');
    const deleted = rows
      .filter((r) => r.deleted_at !== null)
      .map((r) => String(r.id))
      .sort();
    expect(deleted).toEqual([...inside].sort());

    // The unfiltered run covers everything again.
    expect((await sync(['token-unlocks'], {})).streams[0].deleted).toBe(outside.length);
  });
});
