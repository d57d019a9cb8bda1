// @end-to-end
// The documented resume path holds the first time: a first pass of a long list, interrupted after a few
// pages (--max-requests), resumes at its checkpoint and completes, without the page limit (meant for a
// list that never ends) mistaking the pages it has not read yet for a runaway list. On both stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { v1Lists } from '../../src/catalog/v1.js';
import { liveRecords, syncOnce } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore } from '../helpers/stores.js';

const assets = v1Lists.find((s) => s.name === 'assets')!;
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ start: PINNED_START, scale: 2, seed: 6 });
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
          const stopped = await syncOnce(t.store, sandbox, ['assets'], { maxRequests });
          expect([stopped.streams[0]!.outcome, stopped.streams[0]!.errorCode]).toEqual(['stopped', 'DS_REQUEST_BUDGET']);
        }
        const resumed = await syncOnce(t.store, sandbox, ['assets']);
        expect([resumed.streams[0]!.outcome, resumed.streams[0]!.error ?? null]).toEqual(['success', null]);
        expect((await liveRecords(t.store, assets.table, assets.key)).size).toBe(sandbox.records('assets').length);
        expect(sandbox.records('assets').length).toBeGreaterThan(30 * 100); // long enough to pass the old limit
      } finally {
        await t.cleanup();
      }
    });

    it("a first complete pass after the top-assets tier filled the table is not held to that tier's few pages", async () => {
      const t = await openTestStore(dialect);
      try {
        expect((await syncOnce(t.store, sandbox, ['assets-top'])).streams[0]!.outcome).toBe('success');
        const full = await syncOnce(t.store, sandbox, ['assets']);
        expect([full.streams[0]!.outcome, full.streams[0]!.error ?? null]).toEqual(['success', null]);
        expect((await liveRecords(t.store, assets.table, assets.key)).size).toBe(sandbox.records('assets').length);
      } finally {
        await t.cleanup();
      }
    });
  });
}
