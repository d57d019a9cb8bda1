// Honest run records: a run whose process died leaves its sync_runs row open; the next run closes it as
// `interrupted` (keeping what its finished streams did), but never a run that is still going elsewhere
// or in this process. A run of this process that ended without recording its end (a cut connection) is closed.
// And a request the --max-requests budget refused was never made: the table says what the summary says.
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveStreams } from '../../src/catalog/index.js';
import { createClient } from '../../src/client/index.js';
import type { Store } from '../../src/store/index.js';
import { runSync } from '../../src/sync/engine.js';
import { ownerRunning } from '../../src/sync/stream-lease.js';
import { dialects, openTestStore } from '../helpers/stores.js';
import { settings, silent } from '../helpers/mirror.js';
import { listOf, startHostileServer, type HostileServer } from './hostile-server.js';

let server: HostileServer;
beforeAll(async () => {
  server = await startHostileServer();
  server.serve(
    listOf((page, limit) => (page === 1 ? Array.from({ length: Math.min(limit, 5) }, (_, i) => ({ id: i + 1, title: 't' })) : [])),
  );
});
afterAll(() => server.close());

async function syncCharts(store: Store, maxRequests?: number) {
  const client = createClient({ baseUrl: server.url, apiKey: 'k', retries: 0, maxRequests });
  try {
    const result = await runSync({ client, store, logger: silent, settings: settings(), streams: resolveStreams(['charts']) });
    return { result, clientRequests: client.stats.requests };
  } finally {
    await client.close();
  }
}

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

for (const dialect of dialects) {
  describe(`run records (${dialect})`, () => {
    it('marks the runs of dead processes interrupted, and leaves running ones open', async () => {
      const t = await openTestStore(dialect);
      try {
        const deadPid = spawnSync(process.execPath, ['-e', '0']).pid; // a process that has exited
        const killed = await t.store.startRun(['charts', 'assets'], 'full', ago(5_000), undefined, `${hostname()}:${deadPid}:aaaa`);
        await t.store.finishStream(
          killed,
          {
            stream: 'charts',
            fetched: 7,
            inserted: 7,
            updated: 0,
            unchanged: 0,
            deleted: 0,
            errors: 0,
            requests: 2,
            durationMs: 5,
            outcome: 'success',
          },
          ago(4_000),
        );
        const here = `${hostname()}:${process.pid}:bbbb`;
        const runningHere = await t.store.startRun(['assets'], 'full', ago(1_000), undefined, here);
        const endedHere = await t.store.startRun(['glossary'], 'full', ago(1_000), undefined, `${hostname()}:${process.pid}:eeee`);
        const runningElsewhere = await t.store.startRun(['chains'], 'full', ago(600_000), undefined, 'other-host:42:cccc');
        await t.store.acquireLease('sync:chains', 'other-host:42:cccc', 60_000);
        const goneElsewhere = await t.store.startRun(['projects'], 'full', ago(600_000), undefined, 'other-host:43:dddd');

        const running = ownerRunning(here); // as runSync marks the owners of this process's runs going on
        const { result } = await syncCharts(t.store).finally(running);
        expect(result.outcome).toBe('success');
        const runs = await t.store.db.selectFrom('sync_runs').select(['id', 'outcome', 'finished_at']).orderBy('id').execute();
        const outcome = (id: number) => runs.find((r) => Number(r.id) === id)!;
        expect(outcome(killed)).toMatchObject({ outcome: 'interrupted' });
        expect(outcome(killed).finished_at).not.toBeNull();
        expect(outcome(goneElsewhere)).toMatchObject({ outcome: 'interrupted' });
        expect(outcome(runningHere)).toMatchObject({ outcome: null, finished_at: null });
        expect(outcome(endedHere)).toMatchObject({ outcome: 'interrupted' });
        expect(outcome(runningElsewhere)).toMatchObject({ outcome: null, finished_at: null });
        const streams = await t.store.db
          .selectFrom('sync_run_streams')
          .select(['stream', 'outcome', 'fetched'])
          .where('run_id', '=', killed)
          .orderBy('stream')
          .execute();
        expect(streams).toEqual([
          { stream: 'assets', outcome: 'interrupted', fetched: 0 },
          { stream: 'charts', outcome: 'success', fetched: 7 }, // what it had done is kept
        ]);
      } finally {
        await t.cleanup();
      }
    });

    it('--max-requests 0: no request is counted in the table, as in the summary', async () => {
      const t = await openTestStore(dialect);
      try {
        const { result, clientRequests } = await syncCharts(t.store, 0);
        expect(clientRequests).toBe(0);
        expect(result.streams[0]).toMatchObject({ requests: 0, outcome: 'stopped' });
        const row = await t.store.db
          .selectFrom('sync_run_streams')
          .select('requests')
          .where('run_id', '=', result.runId)
          .executeTakeFirstOrThrow();
        expect(Number(row.requests)).toBe(0);
      } finally {
        await t.cleanup();
      }
    });
  });
}
