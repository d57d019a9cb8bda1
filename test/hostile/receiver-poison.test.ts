// @end-to-end
// Hostile deliveries among good ones: what no store can hold is refused for good (a 4xx the sender does
// not retry) and alone; the good deliveries beside it, even in the same commit group, all land.
import { pino } from 'pino';
import { sql } from 'kysely';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../../src/receiver/index.js';
import { GroupCommitter, UnstorableDeliveryError } from '../../src/receiver/group-committer.js';
import { openDeliveryWriter } from '../../src/receiver/open-delivery-writer.js';
import { parseEnvelope } from '../../src/receiver/parse-envelope.js';
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

/** A delivery as the receiver accepts it (parsed, signed), for the group committer. */
function accepted(env: Record<string, any>) {
  const parsed = parseEnvelope(Buffer.from(JSON.stringify(env)));
  if (!parsed.ok) throw new Error(parsed.detail);
  return {
    envelope: parsed.envelope,
    body: parsed.text,
    signed: true,
    receivedAt: new Date().toISOString(),
    changes: [],
    setAside: null,
    coerced: false,
  };
}

function poisoned(): Record<string, any> {
  const env = makeEnvelope();
  env.data.latest_development.title = 'poison';
  return env;
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
      expect(await postSigned(receiver.url, JSON.stringify(poisoned()))).toBe(200);
      try {
        // The split, for certain: deliveries submitted in one turn are one group (over HTTP the poison may
        // come alone: on SQLite it did, in each of three rounds of 200 at times). The store's own writer.
        const writer = await openDeliveryWriter(t.store);
        const groups: number[] = [];
        const committer = new GroupCommitter(writer, (g) => groups.push(g.deliveries.length));
        try {
          const group = Array.from({ length: 20 }, () => makeEnvelope());
          group.splice(10, 0, poisoned());
          const outcomes = await Promise.allSettled(group.map((env) => committer.submit(accepted(env))));
          const refused = outcomes.flatMap((o, i) => (o.status === 'rejected' ? [[i, o.reason instanceof UnstorableDeliveryError]] : []));
          expect(refused).toEqual([[10, true]]);
          expect(groups.reduce((a, b) => a + b, 0)).toBe(20);
          expect(groups.length).toBeGreaterThan(1); // the one group was split to reach the poison
        } finally {
          await writer.close();
        }
        // And through the door, among concurrent senders: the poison gets 422 (not retried), the others 200.
        const bodies = Array.from({ length: 50 }, () => makeEnvelope());
        const sends = bodies.map((env) => postSigned(receiver.url, JSON.stringify(env)));
        sends.splice(25, 0, postSigned(receiver.url, JSON.stringify(poisoned())));
        const statuses = await Promise.all(sends);
        expect(statuses.splice(25, 1)).toEqual([422]);
        expect(statuses.filter((s) => s !== 200)).toEqual([]);
        const ids = bodies.map((e) => e.id);
        const stored = await t.store.db.selectFrom('webhook_deliveries').select('id').where('id', 'in', ids).execute();
        expect(stored).toHaveLength(ids.length);
      } finally {
        await sql`drop index hostile_poison`.execute(t.store.db);
      }
    });

    // The depth of the parsed body is measured without recursion: any depth the body limit allows is safe.
    it('refuses a body nested to the body limit, not a stack overflow', async () => {
      expect(await postSigned(receiver.url, deepDelivery(400_000))).toBe(422);
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
