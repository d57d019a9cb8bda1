// @end-to-end
// The mirror engine against the sandbox over real HTTP, on both stores: a first sync equals the sandbox's
// data field for field; a second writes nothing; after the clock advances exactly the changed, new and
// removed rows are written; a sync under faults ends with the same mirror as a clean one.
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/index.js';
import { v1Lists } from '../../src/catalog/v1.js';
import type { ListStream } from '../../src/catalog/types.js';
import { listPaginator, readAheadExtra } from '../../src/requests/list-requests.js';
import { syncSettings } from '../../src/sync/settings.js';
import { dialects, openTestStore } from '../helpers/stores.js';
import { liveRecords, syncOnce, tableSnapshot, totals } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { sandboxWithStore } from '../helpers/sandbox-store.js';
import { expectedRecords as expected } from '../helpers/v1-expected.js';

// Scale 0.15 (about 900 rows over the /v1 lists, the assets 300 over three classes): lists of several pages, a change of
// each kind in the lists after the clock advances, and enough requests for the chaos to fault some.
const SCALE = 0.15;
const V1 = v1Lists.map((s) => s.name);

/** The pages the lists hold (a page short of full ends each), and the most a first read may make past their ends. */
function minimumRequests(sandbox: Sandbox): { minimum: number; ahead: number } {
  let minimum = 0;
  let ahead = 0;
  for (const stream of v1Lists) {
    const want = [...expected(sandbox, stream).values()] as Record<string, unknown>[];
    for (const variant of stream.variants ?? [{ scope: {} }]) {
      const scoped = want.filter((r) => Object.entries(variant.scope).every(([k, v]) => r[k] === v));
      minimum += Math.floor(scoped.length / listPaginator(stream, syncSettings({})).pageSize) + 1;
      ahead += readAheadExtra(stream, syncSettings({}));
    }
  }
  return { minimum, ahead };
}

async function sandboxSnapshot(sandbox: Sandbox): Promise<Map<string, Map<string, unknown>>> {
  return new Map(v1Lists.map((s) => [s.name, expected(sandbox, s)]));
}

for (const dialect of dialects) {
  describe(`v1 sync on ${dialect}`, () => {
    const fx = sandboxWithStore(dialect, { start: PINNED_START, scale: SCALE, seed: 7 });

    it('mirrors every /v1 list field for field, with the minimum number of requests and a few read ahead', async () => {
      const result = await syncOnce(fx.t.store, fx.sandbox, V1);
      expect(result.outcome).toBe('success');
      for (const stream of v1Lists) {
        const want = expected(fx.sandbox, stream);
        const got = await liveRecords(fx.t.store, stream.table, stream.key);
        expect(got.size, stream.name).toBe(want.size);
        expect(got, stream.name).toEqual(want);
      }
      // A first sync reads ahead (the lists' lengths are unknown): at most a window less one page past each end.
      const { minimum, ahead } = minimumRequests(fx.sandbox);
      expect(result.requests).toBeGreaterThanOrEqual(minimum);
      expect(result.requests).toBeLessThanOrEqual(minimum + ahead);
      expect(totals(result).inserted).toBe([...(await sandboxSnapshot(fx.sandbox)).values()].reduce((n, m) => n + m.size, 0));
    });

    it('maps nested fields into their own columns', async () => {
      const row = (await fx.t.store.db
        .selectFrom('assets')
        .selectAll()
        .where('market_cap_rank', 'is not', null)
        .limit(1)
        .executeTakeFirstOrThrow()) as any;
      const raw = JSON.parse(row.raw);
      expect(row.market_cap_rank).toBe(raw.market_cap.rank);
      expect(row.price_usd).toBe(raw.price.usd);
      expect(row.code).toBe(raw.code);
    });

    it('writes nothing on a second sync of unchanged data', async () => {
      const result = await syncOnce(fx.t.store, fx.sandbox, V1);
      const sum = totals(result);
      expect(sum.inserted + sum.updated + sum.deleted).toBe(0);
      expect(sum.unchanged).toBeGreaterThan(0);
    });

    it('writes exactly the changed, new and removed rows after the clock advances', async () => {
      const before = await sandboxSnapshot(fx.sandbox);
      await fx.sandbox.advance({ seconds: 3600, updateFraction: 0.02, addFraction: 0.01, removeFraction: 0.01 });
      const after = await sandboxSnapshot(fx.sandbox);
      const result = await syncOnce(fx.t.store, fx.sandbox, V1, { settings: { mode: 'full' } });
      const sum = totals(result);
      expect(sum.inserted).toBeGreaterThan(0);
      expect(sum.updated).toBeGreaterThan(0);
      expect(sum.deleted).toBeGreaterThan(0);
      for (const stream of v1Lists) {
        const b = before.get(stream.name)!;
        const a = after.get(stream.name)!;
        const added = [...a.keys()].filter((k) => !b.has(k)).length;
        const removed = [...b.keys()].filter((k) => !a.has(k)).length;
        const changed = [...a.keys()].filter((k) => b.has(k) && JSON.stringify(a.get(k)) !== JSON.stringify(b.get(k))).length;
        const stats = result.streams.find((s) => s.stream === stream.name)!;
        expect({ stream: stream.name, inserted: stats.inserted, updated: stats.updated, deleted: stats.deleted }).toEqual({
          stream: stream.name,
          inserted: added,
          updated: changed,
          deleted: removed,
        });
        expect(await liveRecords(fx.t.store, stream.table, stream.key), stream.name).toEqual(a);
      }
    });

    it('ends with the same mirror under faults (5xx, 429 with Retry-After, resets)', async () => {
      const faulty = await openTestStore(dialect);
      try {
        fx.sandbox.setChaos({ seed: 3, rate5xx: 0.05, rate429: 0.03, retryAfterSeconds: 0, rateReset: 0.02, rateTruncate: 0.02 });
        const served = fx.sandbox.requestCount();
        const result = await syncOnce(faulty.store, fx.sandbox, V1, { settings: { mode: 'full' } });
        fx.sandbox.setChaos(null);
        expect(result.outcome).toBe('success');
        // Faults really happened (attempts were retried), and every request that reached the sandbox is counted
        // once: in the client, and in the stream that sent it.
        expect(result.retries).toBeGreaterThan(0);
        expect(fx.sandbox.requestCount() - served).toBe(result.requests);
        expect(result.streams.reduce((n, s) => n + s.requests, 0)).toBe(result.requests);
        for (const stream of v1Lists) {
          expect(await tableSnapshot(faulty.store, stream.table), stream.name).toEqual(
            (await tableSnapshot(fx.t.store, stream.table)).filter((r) => r.deleted_at === null),
          );
        }
      } finally {
        fx.sandbox.setChaos(null);
        await faulty.cleanup();
      }
    });
  });
}
