// @end-to-end
// Interrupted runs: a run stopped by --max-requests, and a CLI process killed (SIGKILL) mid-way, both
// resume from their checkpoints (not page 1) and end with a mirror identical to an uninterrupted one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { v1Lists } from '../../src/catalog/v1.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { syncOnce, tableSnapshot } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { killCliSyncMidList } from '../helpers/killed-cli-sync.js';

const STREAMS = ['assets', 'sec-filings', 'market-stats', 'charts'];
const TABLES = v1Lists.filter((s) => STREAMS.includes(s.name)).map((s) => s.table);

async function snapshots(test: TestStore): Promise<Record<string, unknown>> {
  return Object.fromEntries(await Promise.all(TABLES.map(async (t) => [t, await tableSnapshot(test.store, t)])));
}

for (const dialect of dialects) {
  describe(`resume on ${dialect}`, () => {
    let sandbox: Sandbox;
    let clean: TestStore;
    let cleanRequests: number;
    let cleanMirror: Record<string, unknown> | undefined; // read once, for both cases
    const cleanSnapshots = async () => (cleanMirror ??= await snapshots(clean));

    beforeAll(async () => {
      sandbox = await startSandbox({ start: PINNED_START, scale: 0.5, seed: 11 });
      clean = await openTestStore(dialect);
      cleanRequests = (await syncOnce(clean.store, sandbox, STREAMS)).requests;
    });
    afterAll(async () => {
      await clean?.cleanup();
      await sandbox?.close();
    });

    it('stops cleanly at --max-requests and the next run resumes from the checkpoint', async () => {
      const test = await openTestStore(dialect);
      try {
        const first = await syncOnce(test.store, sandbox, STREAMS, { maxRequests: Math.floor(cleanRequests / 2) });
        expect(first.outcome).toBe('stopped');
        expect(first.requests).toBe(Math.floor(cleanRequests / 2));
        const second = await syncOnce(test.store, sandbox, STREAMS);
        expect(second.outcome).toBe('success');
        // Resumed, not restarted: together the two runs fetch each page about once (requests cut off
        // in flight by the budget are fetched again).
        expect(first.requests + second.requests).toBeLessThan(cleanRequests + 16);
        expect(await snapshots(test)).toEqual(await cleanSnapshots());
      } finally {
        await test.cleanup();
      }
    });

    it('a CLI run killed mid-way resumes and ends identical', async () => {
      const test = await openTestStore(dialect);
      try {
        // Killed once some pages are committed (the token class's first pages, written in groups of 500
        // rows: pages 1-5); the held pages keep it running until then.
        await killCliSyncMidList(test, sandbox, STREAMS, async () => {
          const state = await test.store.db
            .selectFrom('stream_state')
            .select('checkpoint')
            .where('stream', '=', 'assets')
            .executeTakeFirst();
          const checkpoint = state?.checkpoint ? JSON.parse(String(state.checkpoint)) : null;
          return Boolean(checkpoint && Object.values(checkpoint.next as Record<string, number | null>).some((page) => (page ?? 0) >= 3));
        });
        const resumed = await syncOnce(test.store, sandbox, STREAMS);
        expect(resumed.outcome).toBe('success');
        expect(resumed.requests).toBeLessThan(cleanRequests);
        expect(await snapshots(test)).toEqual(await cleanSnapshots());
      } finally {
        await test.cleanup();
      }
    });
  });
}
