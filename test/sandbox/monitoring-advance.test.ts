// @end-to-end
// advance(): the change set it returns is exactly the difference between the data before and after;
// it is deterministic; and sizes grow linearly with scale. That a scale-50 service starts small is a bar
// at scale: bench/sandbox-startup.ts checks its heap and start time (bench/RESULTS.md).
import { describe, expect, it } from 'vitest';
import { createMonitoringService, type MonitoringService } from '../../sandbox/monitoring/index.js';
import { sizesFor } from '../../sandbox/monitoring/sizes.js';

const START = new Date('2025-04-01T00:00:00Z');

interface Snapshot {
  events: Map<string, string>;
  developments: Map<string, string>;
  unlocks: Map<string, string>;
}

function snapshot(s: MonitoringService): Snapshot {
  const events = s.events();
  const developments = new Map<string, string>();
  for (const e of events) {
    for (const d of e.developments) {
      // A sibling's new development changes only the embedded event.developmentCount, not the development.
      const { event, ...own } = s.development(d.id)!;
      developments.set(d.id, JSON.stringify({ ...own, event: { id: event.id, slug: event.slug, title: event.title } }));
    }
  }
  return {
    events: new Map(events.map((e) => [e.id, JSON.stringify(e)])),
    developments,
    unlocks: new Map(s.tokenUnlockAssets().map((a) => [a.id, JSON.stringify(a)])),
  };
}

function diff(before: Map<string, string>, after: Map<string, string>) {
  const sorted = (xs: string[]) => xs.sort();
  return {
    added: sorted([...after.keys()].filter((k) => !before.has(k))),
    updated: sorted([...after.keys()].filter((k) => before.has(k) && before.get(k) !== after.get(k))),
    removed: sorted([...before.keys()].filter((k) => !after.has(k))),
  };
}
const sortedChanges = (c: { added: string[]; updated: string[]; removed: string[] }) => ({
  added: [...c.added].sort(),
  updated: [...c.updated].sort(),
  removed: [...c.removed].sort(),
});

// Scale 0.1 (200 events, 30 token unlocks): every step still adds, updates and removes events, developments
// on new and on existing events, and token unlocks (the case asserts each), at 0.25's fractions.
const make = (seed = 21, scale = 0.1) => createMonitoringService({ seed, scale, profile: 'default', apiKey: 'k', now: () => START });

describe('advance', () => {
  it('reports exactly the ids that changed, per kind, over several steps', async () => {
    const s = make();
    let before = snapshot(s);
    let to = START;
    for (let step = 1; step <= 3; step++) {
      const from = to;
      to = new Date(from.getTime() + 6 * 3600_000);
      const change = s.advance(to, { updateFraction: 0.05, addFraction: 0.03, removeFraction: 0.02 });
      const after = snapshot(s);
      expect(sortedChanges(change.events)).toEqual(diff(before.events, after.events));
      expect(sortedChanges(change.developments)).toEqual(diff(before.developments, after.developments));
      expect(sortedChanges(change.tokenUnlockAssets)).toEqual(diff(before.unlocks, after.unlocks));
      expect(change.events.added.length).toBe(Math.round(0.03 * (before.events.size - change.events.removed.length)));
      expect(change.events.removed.length).toBe(Math.round(0.02 * before.events.size));
      expect(change.tokenUnlockAssets.updated.length).toBeGreaterThan(0);

      // Every updated or added item carries a new updatedAt; new items start inside the step.
      for (const id of [...change.events.updated, ...change.events.added]) {
        const e = JSON.parse(after.events.get(id)!);
        expect(e.updatedAt > from.toISOString().replace('.000Z', 'Z')).toBe(true);
      }
      for (const id of change.developments.updated) {
        expect(JSON.parse(after.developments.get(id)!).updatedAt).toBe(to.toISOString().replace('.000Z', 'Z'));
      }
      for (const id of change.developments.added) {
        const d = JSON.parse(after.developments.get(id)!);
        expect(Date.parse(d.startedAt)).toBeGreaterThan(from.getTime());
        expect(Date.parse(d.startedAt)).toBeLessThanOrEqual(to.getTime());
      }
      // Developments were added to existing events too, and their events report the change.
      const onExisting = change.developments.added.filter(
        (id) => !change.events.added.includes(JSON.parse(after.developments.get(id)!).event.id),
      );
      expect(onExisting.length).toBeGreaterThan(0);
      for (const id of onExisting) expect(change.events.updated).toContain(JSON.parse(after.developments.get(id)!).event.id);
      before = after;
    }
    await s.close();
  });

  it('removed events and their developments are gone from every endpoint', async () => {
    const s = make();
    const change = s.advance(new Date(START.getTime() + 3600_000), { updateFraction: 0, addFraction: 0, removeFraction: 0.05 });
    expect(change.events.removed.length).toBeGreaterThan(0);
    const headers = { 'x-service-api-key': 'k' };
    const gone = change.events.removed[0];
    const res = s.handle({ path: '/monitoring/v2/events', query: new URLSearchParams({ eventIds: gone }), headers })!;
    expect(res.status).toBe(400);
    for (const d of change.developments.removed) {
      expect(s.handle({ path: `/monitoring/v2/developments/${d}`, query: new URLSearchParams(), headers })!.status).toBe(404);
    }
    await s.close();
  });

  it('is deterministic: same seed and steps, same data and changes', async () => {
    const [a, b] = [make(99), make(99)];
    const opts = { updateFraction: 0.1, addFraction: 0.1, removeFraction: 0.05 };
    const to = new Date(START.getTime() + 86_400_000);
    expect(a.advance(to, opts)).toEqual(b.advance(to, opts));
    expect(a.events()).toEqual(b.events());
    expect(make(100).events()[0].id).not.toBe(a.events()[0].id);
    await Promise.all([a.close(), b.close()]);
  });

  it('grows linearly with scale, and serves its events in pages', async () => {
    const one = make(1, 1);
    expect(one.sizes).toEqual({ tokenUnlocks: 300, events: 2000, assets: 1000, views: 10 });
    expect(one.events()).toHaveLength(2000);
    const counts = one.events().map((e) => e.developmentCount);
    expect(Math.min(...counts)).toBe(1);
    expect(Math.max(...counts)).toBe(10);
    const page = one.handle({
      path: '/monitoring/v2/events',
      query: new URLSearchParams('limit=100&page=20'),
      headers: { 'x-service-api-key': 'k' },
    })!;
    expect((page.body as any).metadata.totalRows).toBe(2000);
    expect((page.body as any).data).toHaveLength(100);
    await one.close();
    // The sizes a service is built with (createMonitoringService), at scale 50.
    expect(sizesFor('default', 50)).toEqual({ tokenUnlocks: 15000, events: 100000, assets: 50000, views: 500 });
  });
});
