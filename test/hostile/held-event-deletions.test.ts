// @end-to-end
// Monitoring events report their own count (`metadata.totalRows`): a complete pass served fewer records
// than it says (an empty list, a list cut short), or one whose count moved or that served a key twice,
// deletes no event and no development, even confirmed; the next honest pass clears the hold and an
// honest removal is deleted at once. On both stores, over real HTTP, against the sandbox's lies.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import type { Lies } from '../../sandbox/http/lies.js';
import { allHolds } from '../../src/sync/held-deletions.js';
import { resolveStreams } from '../../src/catalog/index.js';
import { pageNumber } from '../../src/catalog/paginator.js';
import type { StreamDef } from '../../src/catalog/types.js';
import { runSync } from '../../src/sync/engine.js';
import { ALL_DETAILS, fastClient, settings, silent } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const EVENTS = '/monitoring/v2/events';
/** The events list at 10 a page, not the service's 100: a lie's pages in a tenth of the events. */
const PAGE = 10;
const [catalogEvents] = resolveStreams(['monitoring-events']);
const events10 = { ...catalogEvents!, paginator: pageNumber(PAGE) } as StreamDef;

for (const dialect of dialects) {
  describe(`held event deletions on ${dialect}`, () => {
    let sandbox: Sandbox;
    let t: TestStore;
    const monitoring = { ...settings().monitoring, details: { ...ALL_DETAILS, maxPerRun: 0 } };
    const full = async (confirmDeletions = false) => {
      const client = fastClient(sandbox);
      try {
        const run = settings({ mode: 'full', monitoring, confirmDeletions });
        return (await runSync({ client, store: t.store, logger: silent, settings: run, streams: [events10] })).streams[0]!;
      } finally {
        await client.close();
      }
    };
    const live = async (table: string) =>
      Number(
        (
          (await t.store.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .where('deleted_at', 'is', null)
            .executeTakeFirst()) as { n: number | string }
        ).n,
      );
    const lie = (lies: Lies | null) => sandbox.setChaos(lies ? { lies } : null);

    beforeAll(async () => {
      // Scale 0.04 (80 events) read at 10 a page: the pages of scale 0.2's 400 at 100 a page, and more.
      sandbox = await startSandbox({ start: PINNED_START, scale: 0.04, seed: 5 });
      t = await openTestStore(dialect);
      expect((await full()).outcome).toBe('success');
      expect(await live('monitoring_events')).toBe(sandbox.monitoring.events().length);
      expect(await live('monitoring_events')).toBeGreaterThan(3 * PAGE); // three pages at least
    });
    afterEach(() => lie(null));
    afterAll(async () => {
      await t?.cleanup();
      await sandbox?.close();
    });

    it.each([
      ['an empty list', { empty: { path: EVENTS } }, /the service reported (\d+) records but served 0;/],
      ['a list cut short', { cut: { path: EVENTS, afterRecords: 15 } }, /the service reported (\d+) records but served 15;/],
      ['a key twice in a page', { duplicate: { path: EVENTS, page: 2 } }, /1 key\(s\) served twice in one pass/],
    ] as const)('%s deletes no event, even confirmed; the next honest pass clears the hold', async (_name, lies, why) => {
      const events = await live('monitoring_events');
      const developments = await live('monitoring_developments');
      lie(lies);
      for (const confirm of [false, true]) {
        const pass = await full(confirm);
        expect([pass.outcome, pass.deleted]).toEqual(['success', 0]);
        expect(pass.notice).toMatch(why);
        expect(pass.notice).toMatch(/rows of monitoring_events not deleted: .*the next complete pass that sees a stable list decides$/);
        expect(pass.held).toBeGreaterThan(0);
        expect([await live('monitoring_events'), await live('monitoring_developments')]).toEqual([events, developments]);
        expect((await t.store.getState('monitoring-events'))?.lastNotice).toBe(pass.notice);
        expect((await allHolds(t.store)).map((h) => [h.stream, h.reason])).toEqual([['monitoring-events', pass.notice]]);
      }
      lie(null);
      const honest = await full();
      expect([honest.deleted, honest.held ?? 0, honest.notice ?? null, await allHolds(t.store)]).toEqual([0, 0, null, []]);
      const history = await t.store.db.selectFrom('row_history').select('change').where('change', '=', 'deleted').execute();
      expect(history).toEqual([]);
    });

    it('an honest removal of 2% is deleted at once', async () => {
      const change = (await sandbox.advance({ seconds: 3600, updateFraction: 0, addFraction: 0, removeFraction: 0.02 })).monitoring;
      expect(change.events.removed.length).toBeGreaterThan(0);
      const pass = await full();
      expect([pass.held ?? 0, pass.notice ?? null]).toEqual([0, null]);
      expect(pass.deleted).toBeGreaterThanOrEqual(change.events.removed.length);
      expect(await live('monitoring_events')).toBe(sandbox.monitoring.events().length);
    });
  });
}
