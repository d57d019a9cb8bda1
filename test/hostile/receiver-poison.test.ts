// @end-to-end
// Hostile deliveries among good ones: what no store can hold is refused for good (a 4xx the sender does
// not retry) and alone; the good deliveries beside it, even in the same commit group, all land.
import { pino } from 'pino';
import { sql } from 'kysely';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../../src/receiver/index.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { rowCounts } from '../receiver/receiver-store.js';
import { makeEnvelope, sign } from '../receiver/webhook-fixtures.js';

const SECRET = 'whsec-hostile-0123456789';

async function postSigned(url: string, body: string): Promise<number> {
  const res = await request(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'x-webhook-signature': sign(SECRET, body, Math.floor(Date.now() / 1000)) },
  });
  await res.body.dump();
  return res.statusCode;
}

/** A delivery whose latest development nests `depth` levels deep (the 10 KB body that crashed the receiver). */
function deepDelivery(depth: number): string {
  const env = makeEnvelope();
  const body = JSON.stringify(env);
  return body.replace('"title":"Exploit confirmed"', `"title":"Exploit confirmed","nest":${'['.repeat(depth)}${']'.repeat(depth)}`);
}

for (const dialect of dialects) {
  describe(`hostile deliveries (${dialect})`, () => {
    let t: TestStore;
    let receiver: Receiver;

    beforeAll(async () => {
      t = await openTestStore(dialect);
      receiver = await startReceiver({ store: t.store, port: 0, secrets: [SECRET], logger: pino({ level: 'silent' }) });
    });
    afterAll(async () => {
      await receiver?.close();
      await t?.cleanup();
    });

    it('refuses a delivery nested 5,000 deep, or holding NUL or an unpaired surrogate, with 422, and stays up', async () => {
      const nul = JSON.stringify(makeEnvelope()).replace('The team', 'The \\u0000 team');
      const surrogate = JSON.stringify(makeEnvelope()).replace('The team', 'The \\ud800 team');
      for (const body of [deepDelivery(5_000), deepDelivery(20_000), nul, surrogate])
        expect(await postSigned(receiver.url, body)).toBe(422);
      const good = makeEnvelope();
      expect(await postSigned(receiver.url, JSON.stringify(good))).toBe(200);
      expect(await rowCounts(t.store, good)).toEqual({ deliveries: 1, pairs: 1, alerts: 1, developments: 1 });
      expect(receiver.stats().refused.unstorable).toBe(4);
    });

    it('refuses only the poisoned delivery of a commit group: 0 good deliveries refused', async () => {
      // A delivery the store itself refuses after every check passed: a unique index only the poison breaks.
      await sql`create unique index hostile_poison on monitoring_developments (title) where title = 'poison'`.execute(t.store.db);
      const seed = makeEnvelope();
      seed.data.latest_development.title = 'poison';
      expect(await postSigned(receiver.url, JSON.stringify(seed))).toBe(200);
      try {
        let goodRefused = 0;
        let poisonAccepted = 0;
        const good: Record<string, any>[] = [];
        for (let round = 0; round < 3; round++) {
          const bodies = Array.from({ length: 200 }, () => makeEnvelope());
          good.push(...bodies);
          const poison = makeEnvelope();
          poison.data.latest_development.title = 'poison';
          const sends = bodies.map((env) => postSigned(receiver.url, JSON.stringify(env)));
          sends.splice(100, 0, postSigned(receiver.url, JSON.stringify(poison)));
          const statuses = await Promise.all(sends);
          const poisonStatus = statuses.splice(100, 1)[0];
          if (poisonStatus !== 422) poisonAccepted++;
          goodRefused += statuses.filter((s) => s !== 200).length;
        }
        expect(goodRefused).toBe(0);
        expect(poisonAccepted).toBe(0);
        const ids = good.map((e) => e.id);
        const stored = await t.store.db.selectFrom('webhook_deliveries').select('id').where('id', 'in', ids).execute();
        expect(stored).toHaveLength(ids.length);
      } finally {
        await sql`drop index hostile_poison`.execute(t.store.db);
      }
    });

    it('answers 503 (retry later), not 422, when the store cannot write at all', async () => {
      const { failDeliveryInserts } = await import('../receiver/receiver-store.js');
      const restore = await failDeliveryInserts(t.store);
      try {
        expect(await postSigned(receiver.url, JSON.stringify(makeEnvelope()))).toBe(503);
      } finally {
        await restore();
      }
    });
  });
}

// The depth of the parsed body is measured without recursion: any depth the body limit allows is safe.
describe('a body nested to the body limit', () => {
  it('is refused, not a stack overflow', async () => {
    const t = await openTestStore('sqlite');
    const receiver = await startReceiver({ store: t.store, port: 0, secrets: [SECRET], logger: pino({ level: 'silent' }) });
    try {
      expect(await postSigned(receiver.url, deepDelivery(400_000))).toBe(422);
    } finally {
      await receiver.close();
      await t.cleanup();
    }
  });
});
