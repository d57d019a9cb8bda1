// @end-to-end
// An events pass stopped part-way (here by --max-requests) keeps what it wrote and resumes at the next
// page; removals wait for a pass that started at page 1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveStreams } from '../../src/catalog/index.js';
import { pageNumber } from '../../src/catalog/paginator.js';
import type { Store } from '../../src/store/index.js';
import type { SyncSettings } from '../../src/sync/context.js';
import { runSync } from '../../src/sync/engine.js';
import { readMark } from '../../src/sync/monitoring/pass-marks.js';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { settings as baseSettings, fastClient, silent } from '../helpers/mirror.js';
import { dialects, openTestStore } from '../helpers/stores.js';
import { liveRaw } from './monitoring-fixtures.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { sandboxWithStore } from '../helpers/sandbox-store.js';

const FULL_PASS = { stream: 'monitoring-events', part: 'full-pass' };
// The events list at a few a page instead of the service's 100: a pass is counted in pages, so 60 events at
// 10 a page make the 6 pages that 600 would, and each event written costs its developments too.
const [catalogEvents] = resolveStreams(['monitoring-events']);

/** One run of the events stream at `page` a page, stopped after `maxRequests` if given. */
async function eventsPass(store: Store, sb: Sandbox, page: number, monitoring: SyncSettings['monitoring'], maxRequests?: number) {
  const client = fastClient(sb, { maxRequests });
  const events = { ...catalogEvents!, paginator: pageNumber(page) } as typeof catalogEvents;
  try {
    return await runSync({ client, store, logger: silent, settings: baseSettings({ monitoring }), streams: [events!] });
  } finally {
    await client.close();
  }
}

describe.each(dialects)('events pass resumed on %s', (dialect) => {
  const PAGE = 10;
  // Scale 0.03: 60 events, past the two pages the stopped run writes (scale 0.11's 220 at 100 a page did
  // the same with four times the rows).
  const fx = sandboxWithStore(dialect, { start: PINNED_START, scale: 0.03, seed: 21 });
  // A backlog of details, bounded: the resumed run fetches some after its pages (each detail is one
  // request; all 1,200 of them proved no more than a few do).
  const DETAILS = 5;
  const monitoring = {
    ...baseSettings().monitoring,
    details: { minimumImportance: 'not-important' as const, maxAgeDays: null, maxPerRun: DETAILS },
  };

  it('stops at a checkpoint after two pages and the next run finishes the pass from page 3', async () => {
    const events = fx.sandbox.monitoring.events();
    expect(events.length).toBeGreaterThan(3 * PAGE);
    const stopped = await eventsPass(fx.store, fx.sandbox, PAGE, monitoring, 2);
    expect(stopped.outcome).toBe('stopped');
    expect((await liveRaw(fx.store, 'monitoring_events')).size).toBe(2 * PAGE);
    expect((await fx.store.getState('monitoring-events'))?.checkpoint).toMatchObject({ page: 3, start: null });
    // The stopped run fetched no detail: every development it wrote is pending.
    const pending = () => fx.store.db.selectFrom('monitoring_developments').select('id').where('detail_fetched_at', 'is', null).execute();
    const written = (await fx.store.db.selectFrom('monitoring_developments').select('id').execute()).length;
    expect([(await pending()).length, written > DETAILS]).toEqual([written, true]);

    const resumed = await eventsPass(fx.store, fx.sandbox, PAGE, monitoring);
    expect(resumed.outcome).toBe('success');
    const developments = events.reduce((n, e) => n + e.developments.length, 0);
    // Pages 3.. of the list (to the first short one), then the backlog's share of the pending details.
    expect(resumed.streams[0]!.requests).toBe(Math.floor(events.length / PAGE) - 1 + DETAILS);
    expect((await pending()).length).toBe(developments - DETAILS);
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
    const next = await eventsPass(fx.store, fx.sandbox, PAGE, monitoring);
    expect(next.streams[0]!.requests).toBeLessThan(Math.floor(events.length / PAGE) + 1 + DETAILS);
  });
});

describe.each(dialects)('a first events pass killed at any page, on %s', (dialect) => {
  // The guard is counted in pages, so 80 events at 5 a page make the 16 pages that 1,600 would (stopped
  // after the first, the resumed pass reads 15 more, past the 2 × 1 + 10 pages a guard sized from the one
  // page written would allow). 150 events at 10 a page proved the same with twice the rows.
  const PAGE = 5;
  const none = { ...baseSettings().monitoring, details: { minimumImportance: 'high', maxAgeDays: 0, maxPerRun: 0 } } as const;
  const pass = (store: Store, sb: Sandbox, maxRequests?: number) => eventsPass(store, sb, PAGE, none, maxRequests);
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ start: PINNED_START, scale: 0.04, seed: 22 });
  });
  afterAll(() => sb?.close());

  // One case per stopping page, each with its own bound: the pairs of syncs on PostgreSQL at load 20
  // passed one test's bound together. The first page (the least written, so the smallest guard a count of
  // pages written would give), the middle and the last but one.
  const stops: readonly [string, (pages: number) => number][] = [
    ['after the first page', () => 1],
    ['half way', (pages) => Math.floor(pages / 2)],
    ['before the last page', (pages) => pages - 1],
  ];
  it.each(stops)('resumes and finishes when stopped %s', async (_, stopAt) => {
    const events = sb.monitoring.events();
    const pages = Math.ceil(events.length / PAGE);
    expect(pages).toBeGreaterThanOrEqual(15); // a guard sized from the one page written (2 × 1 + 10 pages) would stop it
    const stopAfter = stopAt(pages);
    const t = await openTestStore(dialect);
    try {
      const stopped = await pass(t.store, sb, stopAfter);
      expect([stopAfter, stopped.outcome]).toEqual([stopAfter, 'stopped']);
      expect((await liveRaw(t.store, 'monitoring_events')).size).toBe(stopAfter * PAGE);
      const resumed = await pass(t.store, sb);
      expect([stopAfter, resumed.outcome, resumed.streams[0]!.error ?? null]).toEqual([stopAfter, 'success', null]);
      expect(resumed.streams[0]!.requests).toBe(pages - stopAfter + 1); // from the next page to the short one
      expect((await liveRaw(t.store, 'monitoring_events')).size).toBe(events.length);
    } finally {
      await t.cleanup();
    }
  });
});
