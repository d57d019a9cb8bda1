// @end-to-end
// The documented resume path holds the first time: a first pass of a long list, interrupted after a few
// pages (--max-requests), resumes at its checkpoint and completes, without the page limit (meant for a
// list that never ends) mistaking the pages it has not read yet for a runaway list. On both stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { resolveStreams } from '../../src/catalog/index.js';
import { pageNumber } from '../../src/catalog/paginator.js';
import { v1Lists } from '../../src/catalog/v1.js';
import type { Store } from '../../src/store/index.js';
import { runSync } from '../../src/sync/engine.js';
import { fastClient, liveRecords, settings, silent } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore } from '../helpers/stores.js';

// The assets at 10 a page instead of the service's 100, and a tenth of the rows (scale 0.2, the top tier 10
// a class): the limit is counted in pages, so the token class takes the 32 pages it took at scale 2.
const PAGE = 10;
const assets = v1Lists.find((s) => s.name === 'assets')!;
const paged = (name: string) => resolveStreams([name]).map((s) => ({ ...s, paginator: pageNumber(PAGE) }) as typeof s);
const pass = async (store: Store, name: 'assets' | 'assets-top', maxRequests?: number) => {
  const client = fastClient(sandbox, { maxRequests });
  try {
    return await runSync({ client, store, logger: silent, settings: settings({ topAssets: PAGE }), streams: paged(name) });
  } finally {
    await client.close();
  }
};
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ start: PINNED_START, scale: 0.2, seed: 6 });
});
afterAll(() => sandbox?.close());

for (const dialect of dialects) {
  describe(`resuming a first pass (${dialect})`, () => {
    // One mirror stopped twice (after 3 requests, then after 4 more) and resumed: the last run, like the
    // second, is a pass resumed before the list ever completed, its token class (32 pages) read from a
    // few pages in, far past twice them. Once stopped after 3 and once after 7 on two mirrors, it cost a
    // first pass more and proved the same limit.
    it('stopped after 3 requests, then after 7, the next run completes the list', async () => {
      const t = await openTestStore(dialect);
      try {
        for (const maxRequests of [3, 4]) {
          const stopped = await pass(t.store, 'assets', maxRequests);
          expect([stopped.streams[0]!.outcome, stopped.streams[0]!.errorCode]).toEqual(['stopped', 'DS_REQUEST_BUDGET']);
        }
        const resumed = await pass(t.store, 'assets');
        expect([resumed.streams[0]!.outcome, resumed.streams[0]!.error ?? null]).toEqual(['success', null]);
        expect((await liveRecords(t.store, assets.table, assets.key)).size).toBe(sandbox.records('assets').length);
        expect(sandbox.records('assets').length).toBeGreaterThan(30 * PAGE); // long enough to pass the old limit
      } finally {
        await t.cleanup();
      }
    });

    it("a first complete pass after the top-assets tier filled the table is not held to that tier's few pages", async () => {
      const t = await openTestStore(dialect);
      try {
        expect((await pass(t.store, 'assets-top')).streams[0]!.outcome).toBe('success');
        const full = await pass(t.store, 'assets');
        expect([full.streams[0]!.outcome, full.streams[0]!.error ?? null]).toEqual(['success', null]);
        expect((await liveRecords(t.store, assets.table, assets.key)).size).toBe(sandbox.records('assets').length);
      } finally {
        await t.cleanup();
      }
    });
  });
}
