// What webhooks add to a scheduled events run, from the deliveries the mirror holds: the events they
// name that started before the window (re-read by id, 100 a request) and the developments they name
// below the backlog's importance (fetched first), as rates over the days the deliveries cover.
import { afterEach, describe, expect, it } from 'vitest';
import { rereadRequestsPerRun, webhookRates } from '../../src/requests/webhook-costs.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const HIGH = { minimumImportance: 'high', maxAgeDays: 30, maxPerRun: 200 } as const;
const T = Date.parse('2026-11-20T12:00:00.000Z');
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(dialects)('webhook costs on %s', (dialect) => {
  let t: TestStore;
  afterEach(() => t.cleanup());

  it('rates named old events and named details below the importance over the days the deliveries cover', async () => {
    t = await openTestStore(dialect);
    const now = iso(T);
    const event = (id: string, startedMs: number) => ({
      id,
      started_at: iso(startedMs),
      raw: '{}',
      row_hash: id,
      first_seen_at: now,
      synced_at: now,
    });
    // An event of the window (started a day before its delivery) and one from long ago; e-none is not mirrored.
    await t.store.db
      .insertInto('monitoring_events')
      .values([event('e-new', T - 3 * DAY), event('e-old', T - 90 * DAY)])
      .execute();
    const dev = (id: string, importance: string | null) => ({
      id,
      event_id: 'e',
      importance,
      raw: '{}',
      row_hash: id,
      first_seen_at: now,
      synced_at: now,
    });
    await t.store.db
      .insertInto('monitoring_developments')
      .values([dev('d-high', 'high'), dev('d-low', 'low')])
      .execute();
    const pair = (delivery: string, view: string, eventId: string, development: string, receivedMs: number) => ({
      delivery_id: delivery,
      view_id: view,
      event_id: eventId,
      development_id: development,
      received_at: iso(receivedMs),
    });
    await t.store.db
      .insertInto('alert_deliveries')
      .values([
        pair('1', 'v1', 'e-new', 'd-high', T - 2 * DAY),
        pair('1', 'v2', 'e-new', 'd-high', T - 2 * DAY),
        pair('2', 'v1', 'e-old', 'd-low', T - DAY),
        pair('3', 'v1', 'e-none', 'd-unknown', T),
      ])
      .execute();

    // Two days covered: e-old and e-none are older than the 7-day lookback; d-low and d-unknown are below 'high'.
    const rates = await webhookRates(t.store, HIGH, 7);
    expect(rates).toEqual({ rereadsPerDay: 1, extraDetailsPerDay: 1 });
    expect(rereadRequestsPerRun(rates, 5 / 1440)).toBeCloseTo(5 / 1440);
    expect(rereadRequestsPerRun({ ...rates, rereadsPerDay: 250 }, 1)).toBe(3);
    expect(await webhookRates(t.store, { ...HIGH, minimumImportance: 'low' }, 7)).toEqual({ rereadsPerDay: 1, extraDetailsPerDay: 0.5 });
  });
});
