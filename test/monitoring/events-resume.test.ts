// @end-to-end
// An events pass stopped part-way (here by --max-requests) keeps what it wrote and resumes at the next
// page; removals wait for a pass that started at page 1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMark } from '../../src/sync/monitoring/pass-marks.js';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { settings as baseSettings, syncOnce } from '../helpers/mirror.js';
import { dialects, openTestStore } from '../helpers/stores.js';
import { liveRaw } from './monitoring-fixtures.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { sandboxWithStore } from '../helpers/sandbox-store.js';

const FULL_PASS = { stream: 'monitoring-events', part: 'full-pass' };

describe.each(dialects)('events pass resumed on %s', (dialect) => {
  // Scale 0.11: 220 events (past the two pages the stopped run writes) and some 1,200 developments, whose
  // details the resumed run fetches one request each.
  const fx = sandboxWithStore(dialect, { start: PINNED_START, scale: 0.11, seed: 21 });

  it('stops at a checkpoint after two pages and the next run finishes the pass from page 3', async () => {
    const events = fx.sandbox.monitoring.events();
    expect(events.length).toBeGreaterThan(200);
    const stopped = await syncOnce(fx.store, fx.sandbox, ['monitoring-events'], { maxRequests: 2 });
    expect(stopped.outcome).toBe('stopped');
    expect((await liveRaw(fx.store, 'monitoring_events')).size).toBe(200);
    expect((await fx.store.getState('monitoring-events'))?.checkpoint).toMatchObject({ page: 3, start: null });

    const resumed = await syncOnce(fx.store, fx.sandbox, ['monitoring-events']);
    expect(resumed.outcome).toBe('success');
    const developments = events.reduce((n, e) => n + e.developments.length, 0);
    // Pages 3.. of the list, then every pending detail (none was fetched by the stopped run).
    expect(resumed.streams[0].requests).toBe(Math.floor(events.length / 100) - 1 + developments);
    expect(await liveRaw(fx.store, 'monitoring_events')).toEqual(new Map(events.map((e) => [e.id, e])));
    expect((await fx.store.getState('monitoring-events'))?.checkpoint).toBeNull();
    // The resumed pass is the same full pass, finished: it counts as the day's (dated when it began), so
    // the next run is incremental, not a full pass from page 1 again; removals wait for the next full pass.
    const { fullAt } = await readMark(fx.store, FULL_PASS);
    expect(fullAt).toEqual(expect.any(String));
    expect(Date.parse(fullAt!)).toBeLessThanOrEqual(
      Date.parse(
        String((await fx.store.db.selectFrom('sync_runs').select('started_at').orderBy('id', 'desc').executeTakeFirstOrThrow()).started_at),
      ),
    );
    const next = await syncOnce(fx.store, fx.sandbox, ['monitoring-events']);
    expect(next.streams[0].requests).toBeLessThan(Math.floor(events.length / 100) + 1);
  });
});

describe.each(dialects)('a first events pass killed at any page, on %s', (dialect) => {
  let sb: Sandbox;
  beforeAll(async () => {
    // Scale 0.75: 1,500 events, 15 pages; stopped after the first, the resumed pass reads 14 more.
    sb = await startSandbox({ start: PINNED_START, scale: 0.75, seed: 22 });
  });
  afterAll(() => sb?.close());

  // One case per stopping page, each with its own bound: the pairs of syncs on PostgreSQL at load 20
  // passed one test's bound together. The first page (the least written, so the smallest guard a count of
  // pages written would give), the middle and the last but one; a stop after page 2 proved nothing the
  // first page does not, at a full pass of 2,000 events on each store.
  const stops: readonly [string, (pages: number) => number][] = [
    ['after the first page', () => 1],
    ['half way', (pages) => Math.floor(pages / 2)],
    ['before the last page', (pages) => pages - 1],
  ];
  it.each(stops)('resumes and finishes when stopped %s', async (_, stopAt) => {
    const events = sb.monitoring.events();
    const pages = Math.ceil(events.length / 100);
    expect(pages).toBeGreaterThanOrEqual(15); // a guard sized from the one page written (2 × 1 + 10 pages) would stop it
    const stopAfter = stopAt(pages);
    const none = { details: { minimumImportance: 'high', maxAgeDays: 0, maxPerRun: 0 } } as const;
    const t = await openTestStore(dialect);
    try {
      const settings = { monitoring: { ...baseSettings().monitoring, ...none } };
      const stopped = await syncOnce(t.store, sb, ['monitoring-events'], { maxRequests: stopAfter, settings });
      expect([stopAfter, stopped.outcome]).toEqual([stopAfter, 'stopped']);
      const resumed = await syncOnce(t.store, sb, ['monitoring-events'], { settings });
      expect([stopAfter, resumed.outcome, resumed.streams[0]!.error ?? null]).toEqual([stopAfter, 'success', null]);
      expect((await liveRaw(t.store, 'monitoring_events')).size).toBe(events.length);
    } finally {
      await t.cleanup();
    }
  });
});
