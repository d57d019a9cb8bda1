import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, openTestStore } from '../helpers/stores.js';
import type { TestStore } from '../helpers/stores.js';
import type { StreamRunStats } from '../../src/store/index.js';

const T1 = '2025-01-01T00:00:00.000Z';
const T2 = '2025-01-01T00:05:00.000Z';
const T3 = '2025-01-01T00:10:00.000Z';

function stats(stream: string, outcome: StreamRunStats['outcome'], extra: Partial<StreamRunStats> = {}): StreamRunStats {
  return {
    stream,
    fetched: 120,
    inserted: 100,
    updated: 15,
    unchanged: 5,
    deleted: 2,
    errors: 1,
    requests: 3,
    details: 7,
    durationMs: 1234.6,
    outcome,
    ...extra,
  };
}

for (const dialect of dialects) {
  describe(`run records and stream state (${dialect})`, () => {
    // One store for both cases (a PostgreSQL database per case cost more than the case).
    let t: TestStore;
    beforeAll(async () => {
      t = await openTestStore(dialect);
    });
    afterAll(() => t?.cleanup());

    it('records a run with its streams, counts, duration and outcome', async () => {
      const runId = await t.store.startRun(['assets', 'chains'], 'incremental', T1);
      expect(await t.store.startRun(['assets'], 'full', T1, 'nightly-full')).toBe(runId + 1);
      await t.store.finishStream(runId, stats('assets', 'success'), T2);
      await t.store.finishStream(runId, stats('chains', 'failed', { error: 'HTTP 503 after 5 attempts' }), T2);
      await t.store.finishRun(runId, 'partial', T2);

      const run = await t.store.db.selectFrom('sync_runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow();
      expect({ ...run, streams: JSON.parse(run.streams) }).toEqual({
        id: runId,
        started_at: T1,
        finished_at: T2,
        mode: 'incremental',
        streams: ['assets', 'chains'],
        outcome: 'partial',
        job: null,
        owner: null,
      });
      const byJob = await t.store.db
        .selectFrom('sync_runs')
        .select('job')
        .where('id', '=', runId + 1)
        .executeTakeFirstOrThrow();
      expect(byJob.job).toBe('nightly-full');
      const perStream = await t.store.db.selectFrom('sync_run_streams').selectAll().where('run_id', '=', runId).orderBy('stream').execute();
      expect(perStream).toEqual([
        {
          run_id: runId,
          stream: 'assets',
          fetched: 120,
          inserted: 100,
          updated: 15,
          unchanged: 5,
          deleted: 2,
          errors: 1,
          requests: 3,
          details: 7,
          duration_ms: 1235,
          outcome: 'success',
          error: null,
          error_code: null,
          notice: null,
        },
        {
          run_id: runId,
          stream: 'chains',
          fetched: 120,
          inserted: 100,
          updated: 15,
          unchanged: 5,
          deleted: 2,
          errors: 1,
          requests: 3,
          details: 7,
          duration_ms: 1235,
          outcome: 'failed',
          error: 'HTTP 503 after 5 attempts',
          error_code: null,
          notice: null,
        },
      ]);
    });

    // A stream of its own: the case above finished one of 'assets' in the same store.
    it('keeps state per stream: checkpoint, last success and last error', async () => {
      expect(await t.store.getState('glossary')).toBeNull();
      const run1 = await t.store.startRun(['glossary'], 'incremental', T1);
      await t.store.transaction((tx) => tx.saveCheckpoint('glossary', { assetClass: 'token', page: 7 }));
      expect(await t.store.getState('glossary')).toEqual({
        stream: 'glossary',
        checkpoint: { assetClass: 'token', page: 7 },
        lastSuccessAt: null,
        lastError: null,
        lastErrorCode: null,
        lastNotice: null,
        lastRunId: null,
      });

      // The last page of a completed pass clears the checkpoint in its transaction; finishStream keeps that.
      await t.store.transaction((tx) => tx.saveCheckpoint('glossary', null));
      await t.store.finishStream(run1, stats('glossary', 'success'), T2);
      const done = (await t.store.getState('glossary'))!;
      expect([done.checkpoint, done.lastError, done.lastRunId]).toEqual([null, null, run1]);
      expect(new Date(done.lastSuccessAt!).toISOString()).toBe(T2); // the time it is given: the run's clock

      // The checkpoint saved by the last page stays.
      await t.store.transaction((tx) => tx.saveCheckpoint('glossary', { page: 9 }));
      await t.store.finishStream(run1, stats('glossary', 'stopped'), T2);
      expect((await t.store.getState('glossary'))?.checkpoint).toEqual({ page: 9 });

      // A failed pass keeps the last success, records the error, and its last page's checkpoint.
      const run2 = await t.store.startRun(['glossary'], 'incremental', T2);
      await t.store.transaction((tx) => tx.saveCheckpoint('glossary', { page: 3 }));
      await t.store.finishStream(run2, stats('glossary', 'failed', { error: 'boom', errorCode: 'DS_DRIFT' }), T3);
      expect(await t.store.getState('glossary')).toEqual({
        stream: 'glossary',
        checkpoint: { page: 3 },
        lastSuccessAt: done.lastSuccessAt,
        lastError: 'boom',
        lastErrorCode: 'DS_DRIFT',
        lastNotice: null,
        lastRunId: run2,
      });
    });
  });
}
