// @end-to-end
// The status page's data from the store, on both dialects, at many dates: each month's days, its
// renewal and projection, the 30 days of alerts, the streams' freshness against their schedule, and the
// runs' totals, read from what the tables hold.
import { afterEach, describe, expect, it } from 'vitest';
import { resolveStreams } from '../../src/catalog/index.js';
import { planQuotas } from '../../src/budget/index.js';
import { readStatusData } from '../../src/observability/status-page/read-status-data.js';
import type { Store } from '../../src/store/index.js';
import { settings } from '../helpers/mirror.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const HOUR = 3_600_000;
const DATES = [
  '2026-01-31T23:59:00.000Z',
  '2026-02-01T00:00:00.000Z',
  '2026-03-29T01:30:00.000Z',
  '2026-11-26T10:00:00.000Z',
  '2026-12-31T23:30:00.000Z',
  '2027-02-28T12:00:00.000Z',
  '2028-02-29T12:00:00.000Z',
];

let test: TestStore | undefined;
afterEach(async () => {
  await test?.cleanup();
  test = undefined;
});

const hourly = {
  job: { name: 'hourly', schedule: '0 * * * *', timeZone: 'UTC', mode: 'incremental' as const },
  streams: resolveStreams(['glossary']),
};

function read(store: Store, now: string) {
  return readStatusData(store, {
    settings: settings(),
    quotas: planQuotas(),
    schedule: [hourly],
    jobs: [],
    now: new Date(now),
    source: 'file',
  });
}

async function succeeded(store: Store, at: number): Promise<void> {
  const row = { last_success_at: new Date(at).toISOString(), updated_at: new Date(at).toISOString() };
  await store.db
    .insertInto('stream_state')
    .values({ stream: 'glossary', checkpoint: null, last_error: null, last_notice: null, last_run_id: null, ...row })
    .onConflict((oc) => oc.column('stream').doUpdateSet(row))
    .execute();
}

describe.each(dialects)('readStatusData on %s', (dialect) => {
  it('draws each month whole, renewing on the first of the next, at many dates', async () => {
    test = await openTestStore(dialect);
    const { store } = test;
    for (const now of DATES) {
      const day = now.slice(0, 10);
      await store.db.insertInto('usage_ledger').values({ family: 'v1', day, requests: 7 }).execute();
      const first = `${now.slice(0, 7)}-01`;
      if (first !== day) await store.db.insertInto('usage_ledger').values({ family: 'v1', day: first, requests: 5 }).execute();
      const data = await read(store, now);
      const v1 = data.families.find((f) => f.family === 'v1')!;
      const at = new Date(now);
      const length = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 0)).getUTCDate();
      expect(v1.days, now).toHaveLength(length);
      expect(v1.days[0]!.day).toBe(first);
      expect(v1.monthRenewsAt).toBe(new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1)).toISOString());
      expect(v1.days.reduce((n, d) => n + d.requests, 0)).toBe(v1.month);
      expect([v1.today, v1.month]).toEqual([7, first === day ? 7 : 12]);
      expect(v1.projectedAtRenewal).toBeGreaterThanOrEqual(v1.month);
      expect(v1.quota.perMonth).toBe(2500);
      expect(data.alerts.days).toHaveLength(30);
      expect(data.alerts.days.at(-1)).toBe(day);
    }
  });

  it('says fresh, late or stale against the hourly job, and never before a success', async () => {
    test = await openTestStore(dialect);
    const { store } = test;
    const now = Date.parse('2026-11-26T10:00:00.000Z');
    const glossary = async () => (await read(store, new Date(now).toISOString())).streams.find((s) => s.stream === 'glossary')!;
    expect((await glossary()).freshness).toBe('never');
    expect((await glossary()).maxAgeMs).toBe(HOUR);
    for (const [ago, want] of [
      [30 * 60_000, 'fresh'],
      [HOUR + 10 * 60_000, 'fresh'],
      [2 * HOUR, 'late'],
      [4 * HOUR, 'stale'],
    ] as const) {
      await succeeded(store, now - ago);
      expect([ago, (await glossary()).freshness]).toEqual([ago, want]);
    }
    expect((await read(store, new Date(now).toISOString())).streams.find((s) => s.stream === 'chains')!.freshness).toBe('never');
  });

  it('sums each run over its streams: requests, rows written, duration, first error', async () => {
    test = await openTestStore(dialect);
    const { store } = test;
    const [run] = await store.db
      .insertInto('sync_runs')
      .values({
        started_at: '2026-11-26T09:00:00.000Z',
        finished_at: '2026-11-26T09:00:04.500Z',
        mode: 'incremental',
        streams: JSON.stringify(['glossary', 'chains']),
        outcome: 'failed',
        job: 'hourly',
        owner: null,
      })
      .returning('id')
      .execute();
    const pass = { run_id: Number(run!.id), fetched: 0, unchanged: 0, errors: 0, details: 0, duration_ms: 1, notice: null };
    await store.db
      .insertInto('sync_run_streams')
      .values([
        { ...pass, stream: 'glossary', inserted: 3, updated: 2, deleted: 1, requests: 4, outcome: 'success', error: null },
        { ...pass, stream: 'chains', inserted: 0, updated: 0, deleted: 0, requests: 2, outcome: 'failed', error: 'HTTP 500' },
      ])
      .execute();
    await store.db
      .insertInto('sync_runs')
      .values({
        started_at: '2026-11-26T09:30:00.000Z',
        finished_at: null,
        mode: 'full',
        streams: '[]',
        outcome: null,
        job: null,
        owner: null,
      })
      .execute();
    const { runs } = await read(store, '2026-11-26T10:00:00.000Z');
    expect(runs.map((r) => [r.job, r.streams, r.requests, r.rowsWritten, r.durationMs, r.outcome, r.error])).toEqual([
      [null, [], 0, 0, null, null, null],
      ['hourly', ['glossary', 'chains'], 6, 6, 4500, 'failed', 'HTTP 500'],
    ]);
  });
});
