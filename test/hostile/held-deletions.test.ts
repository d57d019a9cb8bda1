// @end-to-end
// A consistent lie deletes nothing. The sandbox's lies (a list answered empty, cut short, a key twice in a
// page, keys renamed in case or spacing, a record gone mid-pass) each leave every row live (renamed keys add
// none), say why in the
// stream's notice and in `deletion_holds`, and write no deletion to history; a complete pass hours later
// that agrees (the injected clock moves), or --confirm-deletions, does delete; an honest small removal is
// deleted at once. On both stores, over real HTTP.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import type { Lies } from '../../sandbox/http/lies.js';
import { resolveStreams } from '../../src/catalog/index.js';
import { pageNumber } from '../../src/catalog/paginator.js';
import type { StreamDef } from '../../src/catalog/types.js';
import { runSync } from '../../src/sync/engine.js';
import { allHolds } from '../../src/sync/held-deletions.js';
import type { SyncSettings } from '../../src/sync/context.js';
import { fastClient, liveRecords, settings, silent } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const T0 = Date.parse('2026-03-01T00:00:00Z');
const HOUR = 3_600_000;
/** The chart list at 10 a page, not the service's 100: scale 1's 50 charts make five pages. */
const PAGE = 10;
const charts10 = { ...resolveStreams(['charts'])[0]!, paginator: pageNumber(PAGE) } as StreamDef;
const TABLES: Record<string, { table: string; path: string }> = {
  charts: { table: 'charts', path: '/v1/charts' },
  'token-unlocks': { table: 'token_unlock_assets', path: '/token-unlocks/v1/assets' },
};

for (const dialect of dialects) {
  describe(`held deletions on ${dialect}`, () => {
    let sandbox: Sandbox;
    // The token unlocks' own sandbox, smaller: 90 assets (at scale 5, which the charts once needed for three
    // pages of 100, the ten passes over 1,500 token-unlock assets were most of this file's cost).
    let unlocks: Sandbox;
    let t: TestStore;
    const live = async (stream: string) => new Set((await liveRecords(t.store, TABLES[stream]!.table, ['id'])).keys());
    const served = () => new Set(sandbox.records('charts').map((r) => String((r as { id: unknown }).id)));
    const lie = (lies: Lies | null) => {
      for (const sb of [sandbox, unlocks]) sb.setChaos(lies ? { lies } : null);
    };

    /** One complete pass of `stream` at `hours` after T0; its stream's result. */
    async function full(stream: string, hours: number, extra: Partial<SyncSettings> = {}) {
      const client = fastClient(stream === 'token-unlocks' ? unlocks : sandbox);
      try {
        const run = await runSync({
          client,
          store: t.store,
          logger: silent,
          settings: settings({ mode: 'full', pageWindow: 1, ...extra }),
          streams: stream === 'charts' ? [charts10] : resolveStreams([stream]),
          clock: () => new Date(T0 + hours * HOUR),
        });
        return run.streams[0]!;
      } finally {
        await client.close();
      }
    }
    const deletions = async () =>
      (await t.store.db.selectFrom('row_history').select('change').where('change', '=', 'deleted').execute()).length;

    beforeAll(async () => {
      sandbox = await startSandbox({ start: PINNED_START, scale: 1, seed: 3 });
      unlocks = await startSandbox({ start: PINNED_START, scale: 0.3, seed: 3 });
    });
    beforeEach(async () => {
      t = await openTestStore(dialect);
    });
    afterEach(async () => {
      lie(null);
      await t?.cleanup();
    });
    afterAll(async () => {
      await sandbox?.close();
      await unlocks?.close();
    });

    describe('the chart list', () => {
      beforeEach(async () => {
        expect((await full('charts', 0)).outcome).toBe('success');
        expect((await live('charts')).size).toBe(sandbox.records('charts').length);
        expect((await live('charts')).size).toBeGreaterThan(3 * PAGE); // more than three pages
      });

      it('a list answered empty keeps every row until a complete pass 6 h later agrees', async () => {
        const rows = (await live('charts')).size;
        lie({ empty: { path: '/v1/charts' } });
        const first = await full('charts', 1);
        expect([first.outcome, first.deleted, first.held]).toEqual(['success', 0, rows]);
        expect(first.notice).toMatch(
          new RegExp(
            `^${rows} rows of charts held back: the pass was not served ${rows} of ${rows} rows \\(100%, more than maxDeleteShare\\)`,
          ),
        );
        expect(first.notice).toMatch(/from 2026-03-01T07:00:00.000Z finds them missing too, or by sync --full --confirm-deletions$/);
        expect((await live('charts')).size).toBe(rows);
        expect(await deletions()).toBe(0);
        expect(await allHolds(t.store)).toEqual([expect.objectContaining({ stream: 'charts', variant: '', rows, reason: first.notice })]);
        // The same lie told again sooner than 6 h later is not agreement: the wait runs from the first pass.
        const again = await full('charts', 6.5);
        expect([again.deleted, again.held, (await live('charts')).size, await deletions()]).toEqual([0, rows, rows, 0]);
        const agreed = await full('charts', 7);
        expect([agreed.deleted, agreed.held ?? 0, (await live('charts')).size]).toEqual([rows, 0, 0]);
        expect(agreed.notice).toBe(`${rows} rows deleted that a complete pass at least 6 h earlier missed too`);
        expect([await deletions(), await allHolds(t.store)]).toEqual([rows, []]);
      });

      it('a list cut to 40% keeps the rest; an honest pass clears the hold; --confirm-deletions deletes at once', async () => {
        const rows = (await live('charts')).size;
        const kept = Math.floor(rows * 0.4);
        lie({ cut: { path: '/v1/charts', afterRecords: kept } });
        const cut = await full('charts', 1);
        expect([cut.deleted, cut.held, (await live('charts')).size, await deletions()]).toEqual([0, rows - kept, rows, 0]);
        lie(null);
        const honest = await full('charts', 2);
        expect([honest.deleted, honest.held ?? 0, honest.notice ?? null, await allHolds(t.store)]).toEqual([0, 0, null, []]);
        lie({ cut: { path: '/v1/charts', afterRecords: kept } });
        const confirmed = await full('charts', 3, { confirmDeletions: true });
        expect([confirmed.deleted, confirmed.held ?? 0, (await live('charts')).size]).toEqual([rows - kept, 0, kept]);
        expect(await deletions()).toBe(rows - kept);
      });

      it('a key served twice in a page is no basis for deleting, even confirmed; an honest pass deletes nothing', async () => {
        const rows = (await live('charts')).size;
        lie({ duplicate: { path: '/v1/charts', page: 2 } });
        for (const confirm of [false, true]) {
          const pass = await full('charts', 1, { confirmDeletions: confirm });
          expect([pass.deleted, pass.held, (await live('charts')).size]).toEqual([0, 1, rows]);
          expect(pass.notice).toMatch(
            /^1 of \d+ rows of charts not deleted: 1 key\(s\) served twice in one pass \(e\.g\. \d+\): the list moved under the pass/,
          );
        }
        expect((await allHolds(t.store))[0]?.rows).toBe(1);
        lie(null);
        const honest = await full('charts', 2);
        expect([honest.deleted, honest.held ?? 0, await deletions(), await allHolds(t.store)]).toEqual([0, 0, 0, []]);
      });

      it('a record gone mid-pass (offset drift) deletes no row that exists; the next stable pass deletes only it', async () => {
        const rows = (await live('charts')).size;
        const gone = String((sandbox.records('charts')[0] as { id: unknown }).id);
        lie({ drift: { path: '/v1/charts', afterPage: 1 } });
        const drifted = await full('charts', 1);
        expect([drifted.deleted, drifted.held, (await live('charts')).size]).toEqual([0, 1, rows]);
        expect(drifted.notice).toMatch(
          /not deleted: page 1 served 10 records at the start of the pass and 10, not the same ones, at its end/,
        );
        // The list is stable now (without its first record): the pass that sees it so deletes that one record.
        const stable = await full('charts', 2);
        expect([stable.deleted, stable.held ?? 0, stable.notice ?? null]).toEqual([1, 0, null]);
        const after = await live('charts');
        expect([after.size, after.has(gone)]).toEqual([rows - 1, false]);
      });

      it('an honest small removal is deleted at once, and says nothing', async () => {
        const change = await sandbox.advance({ seconds: 3600, updateFraction: 0, addFraction: 0, removeFraction: 0.02 });
        const removed = change.resources.charts?.removed.length ?? 0;
        expect(removed).toBeGreaterThan(0);
        const pass = await full('charts', 1);
        expect([pass.deleted, pass.held ?? 0, pass.notice ?? null]).toEqual([removed, 0, null]);
        expect(await live('charts')).toEqual(served());
        expect([await deletions(), await allHolds(t.store)]).toEqual([removed, []]);
      });
    });

    it('keys back in another case or spacing never make two live rows; the honest list forgets them; agreement replaces', async () => {
      const arrivals = async () => (await t.store.db.selectFrom('held_arrivals').select('key').execute()).length;
      const rows = async () => (await t.store.db.selectFrom('token_unlock_assets').select('id').execute()).length;
      // The case's store holds the unlocks alone: a mirror holds one service (the charts' sandbox is another).
      expect((await full('token-unlocks', 0)).outcome).toBe('success');
      const before = await live('token-unlocks');
      expect(before.size).toBeGreaterThan(50);
      for (const how of ['upper', 'space'] as const) {
        lie({ renameIds: { path: '/token-unlocks/v1/assets', how } });
        for (const hours of [1, 2]) {
          const renamed = await full('token-unlocks', hours);
          expect([renamed.deleted, renamed.inserted, renamed.held]).toEqual([0, 0, before.size]);
          expect(renamed.notice).toMatch(/records came back under keys that differ only in case or spacing \(".+" came back as ".+"\)/);
          expect(renamed.notice).toMatch(/from 2026-03-01T07:00:00.000Z finds them missing too/); // the wait runs from the first
          expect([await live('token-unlocks'), await rows(), await arrivals(), await deletions()]).toEqual([
            before,
            before.size,
            before.size,
            0,
          ]);
        }
        // The honest list again: the waiting records are forgotten, the hold ends, history holds nothing.
        lie(null);
        const honest = await full('token-unlocks', 3);
        expect([honest.deleted, honest.inserted, honest.held ?? 0, honest.notice ?? null]).toEqual([0, 0, 0, null]);
        expect([await live('token-unlocks'), await rows(), await arrivals(), await allHolds(t.store)]).toEqual([
          before,
          before.size,
          0,
          [],
        ]);
      }
      // Told twice 6 h apart: the renamed records replace the originals, one live row each, history says so.
      lie({ renameIds: { path: '/token-unlocks/v1/assets', how: 'upper' } });
      expect((await full('token-unlocks', 10)).held).toBe(before.size);
      const agreed = await full('token-unlocks', 16);
      expect([agreed.deleted, agreed.inserted, agreed.held ?? 0]).toEqual([before.size, before.size, 0]);
      const now = await live('token-unlocks');
      expect([...now].sort()).toEqual([...before].map((id) => id.toUpperCase()).sort());
      expect([await arrivals(), await deletions(), await allHolds(t.store)]).toEqual([0, before.size, []]);
      // And the old case back, confirmed by the operator at once: the rows it renamed come back.
      lie(null);
      const back = await full('token-unlocks', 17, { confirmDeletions: true });
      expect([back.deleted, back.updated, back.held ?? 0, await live('token-unlocks'), await arrivals()]).toEqual([
        before.size,
        before.size,
        0,
        before,
        0,
      ]);
    });
  });
}
