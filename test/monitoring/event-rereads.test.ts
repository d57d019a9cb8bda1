// @end-to-end
// Events that a webhook names are re-read on the next incremental run (eventIds, by id), so an old event
// that gained a development is current then, not after the next full pass; one no webhook named waits.
import { pino } from 'pino';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { startReceiver } from '../../src/receiver/index.js';
import { settings as baseSettings, NO_DETAILS, syncOnce } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { makeEnvelope, sign } from '../receiver/webhook-fixtures.js';

const SECRET = 'whsec-rereads';
// A development count is the event's own field: no development's detail is fetched (a request each).
const firstPass = () => ({ monitoring: { ...baseSettings().monitoring, details: NO_DETAILS } });
const incremental = () => ({ monitoring: { ...firstPass().monitoring, fullPassEveryHours: 100_000 } });

/** One signed delivery naming each event, through a receiver on the store; the statuses. */
async function deliverFor(t: TestStore, eventIds: readonly string[]): Promise<number[]> {
  const receiver = await startReceiver({ store: t.store, port: 0, secrets: [SECRET], logger: pino({ level: 'silent' }) });
  try {
    const statuses: number[] = [];
    for (const eventId of eventIds) {
      const body = JSON.stringify(makeEnvelope({ eventId }));
      const res = await request(receiver.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-webhook-signature': sign(SECRET, body, Math.floor(Date.now() / 1000)) },
        body,
      });
      statuses.push(res.statusCode);
      await res.body.text();
    }
    return statuses;
  } finally {
    await receiver.close();
  }
}

for (const dialect of dialects) {
  describe(`events named by webhooks (${dialect})`, () => {
    let sb: Sandbox;
    let t: TestStore;
    let lateEvent: { id: string; developments: number };
    beforeAll(async () => {
      sb = await startSandbox({ start: PINNED_START, scale: 0.1, seed: 31 });
      t = await openTestStore(dialect);
    });
    afterAll(async () => {
      await t?.cleanup();
      await sb?.close();
    });

    it('an old event a webhook named is current after the next incremental run; one no webhook named waits', async () => {
      expect((await syncOnce(t.store, sb, ['monitoring-events'], { settings: firstPass() })).outcome).toBe('success');
      const before = new Map(sb.monitoring.events().map((e) => [e.id, e.developments.length]));
      // The next incremental window starts at the newest event mirrored now, minus the 7-day lookback.
      const mirroredNewest = Math.max(...sb.monitoring.events().map((e) => Date.parse(e.startedAt)));
      await sb.advance({ seconds: 20 * 86_400, updateFraction: 0, addFraction: 0.3, removeFraction: 0 });
      const cutoff = mirroredNewest - 8 * 86_400_000; // well before that window
      const grown = sb.monitoring
        .events()
        .filter((e) => Date.parse(e.startedAt) < cutoff && (before.get(e.id) ?? 0) > 0 && e.developments.length > before.get(e.id)!);
      expect(grown.length).toBeGreaterThanOrEqual(2);
      const [named, unnamed] = grown;

      expect(await deliverFor(t, [named!.id])).toEqual([200]);

      const run = await syncOnce(t.store, sb, ['monitoring-events'], { settings: incremental() });
      expect(run.outcome).toBe('success');
      const count = async (id: string) =>
        Number(
          (await t.store.db.selectFrom('v_events').select('development_count').where('id', '=', id).executeTakeFirstOrThrow())
            .development_count,
        );
      expect(await count(named!.id)).toBe(named!.developments.length);
      expect(await count(unnamed!.id)).toBe(before.get(unnamed!.id)); // no webhook, out of the window: the full pass will
      lateEvent = { id: unnamed!.id, developments: sb.monitoring.events().find((e) => e.id === unnamed!.id)!.developments.length };
    });

    it('an id the service refuses is isolated and dropped with a notice; the others of its batch are read, and it is not asked again', async () => {
      const unknown = '00000000-0000-4000-8000-00000000dead';
      expect(await deliverFor(t, [unknown, lateEvent.id])).toEqual([200, 200]);
      const run = await syncOnce(t.store, sb, ['monitoring-events'], { settings: incremental() });
      expect(run.outcome).toBe('success');
      expect(run.streams[0]!.notice).toMatch(new RegExp(`1 event id\\(s\\) named by webhooks are refused by the service.*${unknown}`));
      const developments = await t.store.db
        .selectFrom('v_events')
        .select('development_count')
        .where('id', '=', lateEvent.id)
        .executeTakeFirstOrThrow();
      expect(Number(developments.development_count)).toBe(lateEvent.developments); // read although its batch held the refused id
      const again = await syncOnce(t.store, sb, ['monitoring-events'], { settings: incremental() });
      expect([again.outcome, again.streams[0]!.notice ?? null]).toEqual(['success', null]);
    });
  });
}
