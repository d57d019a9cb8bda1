// A plain sync reads assets as the assets-top job does; the complete pass only when none ever
// completed, when monthly-assets fired after the last one ended (walked over the minutes around its
// fires, February and a 31-day month included), or under --full. On both stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScheduleEntry } from '../../src/budget/projection.js';
import { streamReadings } from '../../src/budget/stream-readings.js';
import { resolveStreams } from '../../src/catalog/index.js';
import { configureJobs, jobStreams } from '../../src/scheduler/index.js';
import { defaultJobs } from '../../src/scheduler/job-files.js';
import type { Store } from '../../src/store/types.js';
import { syncSettings } from '../../src/sync/settings.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const schedule = (overrides: Record<string, { enabled: boolean }> = {}): ScheduleEntry[] =>
  configureJobs(defaultJobs, overrides, 'UTC')
    .filter((j) => j.enabled)
    .map((job) => ({ job, streams: jobStreams(job) }));

async function lastCompletePass(store: Store, at: string): Promise<void> {
  await store.db.deleteFrom('stream_state').where('stream', '=', 'assets').execute();
  await store.db.insertInto('stream_state').values({ stream: 'assets', last_success_at: at, updated_at: at }).execute();
}

async function assetsRead(store: Store, at: string, opts: { full?: boolean; jobs?: ScheduleEntry[] } = {}) {
  const settings = syncSettings({}, { full: opts.full });
  const readings = await streamReadings(store, settings, resolveStreams(['assets']), opts.jobs ?? schedule(), new Date(at));
  return { reads: readings[0]!.reads.name, how: readings[0]!.how };
}

for (const dialect of dialects) {
  describe(`how a plain sync reads assets (${dialect})`, () => {
    let t: TestStore;
    beforeAll(async () => {
      t = await openTestStore(dialect);
    });
    afterAll(() => t.cleanup());

    it('makes the complete pass on a mirror that never completed one', async () => {
      expect(await assetsRead(t.store, '2026-03-15T12:00:00Z')).toEqual({
        reads: 'assets',
        how: 'complete pass: the mirror never completed one',
      });
    });

    it('reads the top of each class until monthly-assets fires again, then makes the complete pass', async () => {
      const cases: [last: string, at: string, reads: string][] = [
        ['2026-03-01T05:10:00Z', '2026-03-01T05:11:00Z', 'assets-top'], // right after a first sync
        ['2026-03-01T05:10:00Z', '2026-03-15T12:00:00Z', 'assets-top'],
        ['2026-03-01T05:10:00Z', '2026-03-31T23:59:00Z', 'assets-top'], // the last minute of a 31-day month
        ['2026-03-01T05:10:00Z', '2026-04-01T04:29:00Z', 'assets-top'], // the 1st, before the job's minute
        ['2026-03-01T05:10:00Z', '2026-04-01T04:30:00Z', 'assets'], // its minute
        ['2026-03-01T05:10:00Z', '2026-04-20T10:00:00Z', 'assets'], // the daemon did not run it
        ['2026-02-01T04:35:00Z', '2026-02-28T23:59:00Z', 'assets-top'], // February
        ['2026-02-01T04:35:00Z', '2026-03-01T04:30:00Z', 'assets'],
        ['2026-01-20T08:00:00Z', '2026-02-01T04:29:00Z', 'assets-top'], // a first sync mid-month counts as its pass
      ];
      for (const [last, at, reads] of cases) {
        await lastCompletePass(t.store, last);
        const read = await assetsRead(t.store, at);
        expect({ last, at, reads: read.reads }).toEqual({ last, at, reads });
        expect(read.how).toMatch(
          reads === 'assets'
            ? /^complete pass, due: monthly-assets fired \d{4}-\d\d-01 04:30 UTC, after the last one/
            : /^the top 100 of each class, as assets-top: the complete pass ran .* UTC, monthly-assets runs the next \(--full: now\)$/,
        );
      }
    });

    it('makes it under --full whatever the date, and never by itself when no job schedules it', async () => {
      await lastCompletePass(t.store, '2026-03-01T05:10:00Z');
      expect(await assetsRead(t.store, '2026-03-02T00:00:00Z', { full: true })).toEqual({ reads: 'assets', how: 'complete pass (--full)' });
      const noMonthly = schedule({ 'monthly-assets': { enabled: false } });
      const late = await assetsRead(t.store, '2026-09-02T00:00:00Z', { jobs: noMonthly });
      expect(late).toEqual({ reads: 'assets-top', how: expect.stringMatching(/no job runs the next \(--full: now\)$/) });
    });

    it('reads assets once when both tiers are named', async () => {
      await lastCompletePass(t.store, '2026-03-01T05:10:00Z');
      const both = await streamReadings(
        t.store,
        syncSettings({}),
        resolveStreams(['assets', 'assets-top']),
        schedule(),
        new Date('2026-03-02T00:00:00Z'),
      );
      expect(both.map((r) => r.reads.name)).toEqual(['assets-top']);
    });
  });
}
