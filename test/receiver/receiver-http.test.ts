// @end-to-end
// The receiver over real HTTP on loopback, against a real store: what is accepted lands exactly
// once, what is refused gets the status the sender's retry policy expects and leaves nothing behind.
import { randomUUID } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pino } from 'pino';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../../src/receiver/index.js';
import type { Store } from '../../src/store/index.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { failDeliveryInserts, holdWriteLock, rowCounts } from './receiver-store.js';
import { makeEnvelope, sign } from './webhook-fixtures.js';

const SECRET = 'whsec-test-0123456789abcdef';
const UNSIGNED_VIEW = randomUUID();
const nowSec = () => Math.floor(Date.now() / 1000);

async function post(url: string, body: string | Buffer, headers: Record<string, string> = {}) {
  const res = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  return { status: res.statusCode, body: await res.body.text() };
}

async function postSigned(url: string, envelope: object, secret = SECRET, tSec = nowSec()) {
  const body = JSON.stringify(envelope);
  return post(url, body, { 'x-webhook-signature': sign(secret, body, tSec) });
}

function signed(env: object, secret = SECRET, tSec = nowSec()) {
  return signedRaw(JSON.stringify(env), secret, tSec);
}

function signedRaw(body: string, secret = SECRET, tSec = nowSec()) {
  return { body, headers: { 'x-webhook-signature': sign(secret, body, tSec) } };
}

for (const dialect of dialects) {
  describe(`receiver over HTTP (${dialect})`, () => {
    let t: TestStore;
    let store: Store;
    let receiver: Receiver;
    const logLines: string[] = [];

    beforeAll(async () => {
      t = await openTestStore(dialect);
      store = t.store;
      const sink = new Writable({
        write(chunk, _enc, done) {
          logLines.push(String(chunk));
          done();
        },
      });
      receiver = await startReceiver({
        store,
        port: 0,
        secrets: ['old-secret', SECRET],
        allowUnsignedViews: [UNSIGNED_VIEW],
        maxBodyBytes: 64 * 1024,
        logger: pino(sink),
      });
    });

    afterAll(async () => {
      await receiver?.close();
      await t?.cleanup();
    });

    describe('deliveries', () => {
      it('answers the health check', async () => {
        const res = await request(receiver.url.replace('/webhooks', '/healthz'));
        expect(res.statusCode).toBe(200);
        expect(await res.body.json()).toEqual({ ok: true });
      });

      it('appends a signed delivery: raw body byte for byte, alert history, development to fetch', async () => {
        const env = makeEnvelope();
        // Odd spacing and key order: the stored body must be these exact bytes.
        const body = JSON.stringify(env, null, 3).replace('"type"', '"type"  ');
        const res = await post(receiver.url, body, { 'x-webhook-signature': sign(SECRET, body, nowSec()) });
        expect(res.status).toBe(200);
        const row = await store.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', env.id).executeTakeFirstOrThrow();
        expect(row.body).toBe(body);
        expect(Boolean(row.signed)).toBe(true);
        expect(row).toMatchObject({
          view_id: env.data.view.id,
          event_id: env.data.event.id,
          development_id: env.data.latest_development.id,
        });
        const alert = await store.db.selectFrom('alert_history').selectAll().where('event_id', '=', env.data.event.id).execute();
        expect(alert).toMatchObject([
          { view_id: env.data.view.id, development_id: env.data.latest_development.id, source: 'webhook', backfill_at: null },
        ]);
        expect(alert[0]!.webhook_at).not.toBeNull();
        const pairs = await store.db.selectFrom('alert_deliveries').selectAll().where('delivery_id', '=', env.id).execute();
        expect(pairs).toMatchObject([{ view_id: env.data.view.id, development_id: env.data.latest_development.id }]);
        const dev = await store.db
          .selectFrom('monitoring_developments')
          .selectAll()
          .where('id', '=', env.data.latest_development.id)
          .executeTakeFirstOrThrow();
        expect(dev).toMatchObject({ event_id: env.data.event.id, title: 'Exploit confirmed', importance: 'high', detail_fetched_at: null });
      });

      it('stores a retry once, and a delivery id to a second view as a second pair and alert', async () => {
        const env = makeEnvelope();
        const before = receiver.stats();
        expect((await postSigned(receiver.url, env)).status).toBe(200);
        expect((await postSigned(receiver.url, env, 'old-secret', nowSec() - 5)).status).toBe(200);
        const second = structuredClone(env);
        second.data.view = { id: randomUUID(), name: 'Second view' };
        expect((await postSigned(receiver.url, second)).status).toBe(200);
        expect(await rowCounts(store, env)).toEqual({ deliveries: 1, pairs: 2, alerts: 2, developments: 1 });
        const after = receiver.stats();
        expect(after.received - before.received).toBe(3);
        expect(after.duplicates - before.duplicates).toBe(1);
      });

      it('does not overwrite a development whose detail the sync already fetched', async () => {
        const env = makeEnvelope();
        const devId = env.data.latest_development.id;
        const fetched = '2026-11-20T11:00:00.000Z';
        await store.transaction((tx) =>
          tx.upsertChanged(
            'monitoring_developments',
            ['id'],
            [
              {
                id: devId,
                event_id: env.data.event.id,
                title: 'Fetched title',
                summary: 'detail',
                detail_fetched_at: fetched,
                raw: { id: devId },
                row_hash: 'h1',
              },
            ],
            fetched,
          ),
        );
        expect((await postSigned(receiver.url, env)).status).toBe(200);
        const dev = await store.db.selectFrom('monitoring_developments').selectAll().where('id', '=', devId).executeTakeFirstOrThrow();
        expect(dev.title).toBe('Fetched title');
        expect(dev.detail_fetched_at).not.toBeNull();
      });

      const refusals: [string, number, string, () => { body: string | Buffer; headers: Record<string, string>; env?: any }][] = [
        ['forged (unknown secret)', 401, 'bad_signature', () => signed(makeEnvelope(), 'not-our-secret')],
        [
          'tampered body',
          401,
          'bad_signature',
          () => {
            const s = signed(makeEnvelope());
            return { ...s, body: (s.body as string).replace('Exploit confirmed', 'Exploit denied') };
          },
        ],
        ['stale timestamp', 401, 'stale_timestamp', () => signed(makeEnvelope(), SECRET, nowSec() - 301)],
        ['future timestamp', 401, 'future_timestamp', () => signed(makeEnvelope(), SECRET, nowSec() + 301)],
        [
          'malformed header',
          401,
          'malformed_signature',
          () => {
            const s = signed(makeEnvelope());
            return { ...s, headers: { 'x-webhook-signature': s.headers['x-webhook-signature'].replace('t=', 'ts=') } };
          },
        ],
        ['unsigned, view not allowed', 401, 'missing_signature', () => ({ body: JSON.stringify(makeEnvelope()), headers: {} })],
        [
          'oversized',
          413,
          'body_too_large',
          () => {
            const env = makeEnvelope();
            env.data.latest_development.summary = 'x'.repeat(70 * 1024);
            return signed(env);
          },
        ],
        ['non-JSON', 400, 'invalid_json', () => signedRaw('this is not json')],
        [
          // Nothing vouches for an unsigned body the receiver cannot read: refused, not set aside.
          'unsigned, of another shape, view not allowed',
          401,
          'missing_signature',
          () => {
            const env = makeEnvelope();
            delete env.data.latest_development.title;
            return { body: JSON.stringify(env), headers: {} };
          },
        ],
      ];

      it.each(refusals)('refuses %s with %i and stores nothing', async (_name, status, reason, build) => {
        const before = receiver.stats();
        const countsBefore = await rowCounts(store);
        const { body, headers } = build();
        const res = await post(receiver.url, body, headers);
        expect(res.status).toBe(status);
        expect(JSON.parse(res.body)).toEqual({ error: reason });
        expect(receiver.stats().refused[reason]).toBe((before.refused[reason] ?? 0) + 1);
        expect(await rowCounts(store)).toEqual(countsBefore);
      });

      it('sets a signed delivery of another shape aside whole with its reason, acknowledges it, and reports the change', async () => {
        const countsBefore = await rowCounts(store);
        const env = makeEnvelope();
        env.type = 'something_else';
        delete env.data.latest_development.title;
        env.data.latest_development.started_at = 1767225600; // taken as ISO text: not a reason
        const { body, headers } = signed(env);
        const before = receiver.stats().setAside;
        const res = await post(receiver.url, body, headers);
        expect([res.status, JSON.parse(res.body)]).toEqual([200, { ok: true }]);
        // A retry of the same bytes is acknowledged and adds nothing.
        expect((await post(receiver.url, body, signed(env).headers)).status).toBe(200);
        expect(receiver.stats().setAside).toBe(before + 2);
        // Counted with the deliveries the service sent (its pair, 'set aside'), and read as no alert.
        expect(await rowCounts(store)).toEqual({ ...countsBefore, pairs: countsBefore.pairs + 1 });
        const pair = await store.db.selectFrom('alert_deliveries').select(['view_id', 'state']).where('delivery_id', '=', env.id).execute();
        expect(pair).toEqual([{ view_id: env.data.view.id, state: 'set aside' }]);
        const rows = await store.db.selectFrom('webhook_set_aside').selectAll().where('id', '=', env.id).execute();
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({
          body,
          view_id: env.data.view.id,
          event_id: env.data.event.id,
          development_id: env.data.latest_development.id,
          completed_at: null,
          reason:
            'data.latest_development.title missing; type came as string "something_else" where the receiver needs string (monitoring_event)',
        });
        expect(Boolean(rows[0]!.signed)).toBe(true);
        const changes = await store.db
          .selectFrom('schema_changes')
          .select(['path', 'kind', 'outcome', 'records'])
          .where('stream', '=', 'webhook-deliveries')
          .orderBy('path')
          .execute();
        expect(changes.map((c) => [c.path, c.kind, c.outcome, Number(c.records)])).toEqual([
          ['data.latest_development.started_at', 'other type', 'coerced', 2],
          ['data.latest_development.title', 'missing', 'set aside', 2],
          ['type', 'other type', 'set aside', 2],
        ]);
        expect(logLines.join('')).toMatch(
          /"level":40,.*"setAside":"data\.latest_development\.title missing; .*"msg":"webhook delivery of another shape set aside/,
        );
      });

      it('refuses an oversized chunked body (no content-length) with 413', async () => {
        const countsBefore = await rowCounts(store);
        const chunks = Readable.from(Array.from({ length: 20 }, () => Buffer.alloc(8 * 1024, 0x20)));
        const res = await request(receiver.url, {
          method: 'POST',
          body: chunks,
          headers: { 'x-webhook-signature': `t=1,v1=${'0'.repeat(64)}` },
        });
        expect(res.statusCode).toBe(413);
        await res.body.dump();
        expect(await rowCounts(store)).toEqual(countsBefore);
      });

      it('refuses a compressed delivery with 415 (its signature covers the bytes as sent), storing nothing', async () => {
        const countsBefore = await rowCounts(store);
        const { body, headers } = signed(makeEnvelope());
        const res = await post(receiver.url, body, { ...headers, 'content-encoding': 'gzip' });
        expect(res.status).toBe(415);
        expect(await rowCounts(store)).toEqual(countsBefore);
      });

      it('answers 404 off the webhook path and 405 to other methods', async () => {
        expect((await post(`${receiver.url}/x`, '{}')).status).toBe(404);
        const get = await request(receiver.url);
        expect(get.statusCode).toBe(405);
        expect(get.headers.allow).toBe('POST');
        await get.body.dump();
      });

      it('sets aside an unsigned delivery of another shape for a view allowed unsigned deliveries', async () => {
        const env = makeEnvelope({ viewId: UNSIGNED_VIEW });
        env.data.latest_development.actionable = 'maybe';
        expect((await post(receiver.url, JSON.stringify(env))).status).toBe(200);
        const row = await store.db
          .selectFrom('webhook_set_aside')
          .select(['signed', 'reason'])
          .where('id', '=', env.id)
          .executeTakeFirstOrThrow();
        expect([Boolean(row.signed), row.reason]).toEqual([
          false,
          'data.latest_development.actionable came as string "maybe" where the receiver needs boolean',
        ]);
      });

      it('accepts an unsigned delivery only for a view explicitly allowed', async () => {
        const env = makeEnvelope({ viewId: UNSIGNED_VIEW });
        expect((await post(receiver.url, JSON.stringify(env))).status).toBe(200);
        const row = await store.db.selectFrom('webhook_deliveries').select('signed').where('id', '=', env.id).executeTakeFirstOrThrow();
        expect(Boolean(row.signed)).toBe(false);
        // A present but wrong signature is refused even for that view.
        const forged = signed(makeEnvelope({ viewId: UNSIGNED_VIEW }), 'wrong');
        expect((await post(receiver.url, forged.body, forged.headers)).status).toBe(401);
      });

      it('lands every delivery of 64 concurrent senders exactly once, duplicates included', async () => {
        // 96 deliveries, each sent twice, interleaved, as concurrent retries would: three sends a sender, 64 in
        // flight at once (150 proved no more, at half as much CPU again).
        const envs = Array.from({ length: 96 }, () => makeEnvelope());
        const sends = [...envs, ...envs].map((env) => () => postSigned(receiver.url, env));
        const statuses: number[] = [];
        await Promise.all(
          Array.from({ length: 64 }, async () => {
            for (let job = sends.shift(); job; job = sends.shift()) statuses.push((await job()).status);
          }),
        );
        expect(statuses.filter((s) => s === 200)).toHaveLength(2 * envs.length);
        const ids = envs.map((e) => e.id);
        const rows = await store.db.selectFrom('webhook_deliveries').select('id').where('id', 'in', ids).execute();
        expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort());
      });

      it('never logs a secret, a signature or a body', () => {
        const logs = logLines.join('');
        expect(logs).toContain('"status":401');
        for (const secret of [SECRET, 'old-secret', 'Exploit confirmed', 'this is not json', 'v1=']) expect(logs).not.toContain(secret);
      });
    });

    describe('failures, restarts and shutdown', () => {
      it('answers 503 when the commit fails, and the retry then lands', async () => {
        const env = makeEnvelope();
        const restore = await failDeliveryInserts(store);
        try {
          const first = await postSigned(receiver.url, env);
          expect(first.status).toBe(503);
          expect(JSON.parse(first.body)).toEqual({ error: 'storage_unavailable' });
          expect(await rowCounts(store, env)).toEqual({ deliveries: 0, pairs: 0, alerts: 0, developments: 0 });
        } finally {
          await restore();
        }
        expect((await postSigned(receiver.url, env)).status).toBe(200);
        expect(await rowCounts(store, env)).toEqual({ deliveries: 1, pairs: 1, alerts: 1, developments: 1 });
      });

      it('keeps deliveries exactly once across a receiver restart', async () => {
        const env = makeEnvelope();
        const opts = { store, port: 0, secrets: [SECRET], logger: pino({ level: 'silent' }) };
        const first = await startReceiver(opts);
        expect((await postSigned(first.url, env)).status).toBe(200);
        await first.close();
        const second = await startReceiver(opts);
        try {
          expect((await postSigned(second.url, env)).status).toBe(200);
          expect(second.stats()).toMatchObject({ received: 1, duplicates: 1 });
          expect(await rowCounts(store, env)).toEqual({ deliveries: 1, pairs: 1, alerts: 1, developments: 1 });
        } finally {
          await second.close();
        }
      });

      it('finishes an in-flight delivery during close and then refuses connections', async () => {
        const r = await startReceiver({ store, port: 0, secrets: [SECRET], logger: pino({ level: 'silent' }) });
        const release = await holdWriteLock(store);
        const env = makeEnvelope();
        const inFlight = postSigned(r.url, env);
        await new Promise((resolve) => setTimeout(resolve, 100));
        const closed = r.close();
        await new Promise((resolve) => setTimeout(resolve, 200));
        await release();
        await closed;
        expect((await inFlight).status).toBe(200);
        expect(await rowCounts(store, env)).toEqual({ deliveries: 1, pairs: 1, alerts: 1, developments: 1 });
        await expect(postSigned(r.url, makeEnvelope())).rejects.toThrow();
      });
    });
  });
}
