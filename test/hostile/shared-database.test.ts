// @end-to-end
// A PostgreSQL database shared with others: another schema already holding Kysely's migration tables
// does not stop the mirror from making its own, and a lock someone else holds on the deliveries table
// bounds the wait: the delivery gets 503 (the sender retries), never a hang, and lands once released.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from '../../src/receiver/index.js';
import { DEFAULT_STORE_BOUNDS, openStore } from '../../src/store/index.js';
import { createOwnCopy, type OwnCopy } from '../helpers/own-copy.js';
import { makeEnvelope, sign } from '../receiver/webhook-fixtures.js';
import { MIRROR_SCHEMA } from '../../src/mirror-schema/index.js';

let own: OwnCopy;
let url: string;
/** The other mirror's schema, migrated in the run's template: Kysely's migration tables already there. */
let another: string;
const silent = pino({ level: 'silent' });

beforeAll(async () => {
  // A copy of the run's migrated template (a database of the test's own: it locks a table), so the other
  // schema's tables come without migrating them, and only the mirror under test migrates from nothing.
  own = await createOwnCopy('shared');
  ({ url, schema: another } = own);
});
afterAll(() => own?.drop());

describe('a shared PostgreSQL database', () => {
  it("makes the mirror's own migration tables although another schema holds Kysely's", async () => {
    const mirror = await openStore({ migrations: MIRROR_SCHEMA, url, logger: silent }); // the default schema
    try {
      const tables = await mirror.db
        .selectFrom('information_schema.tables' as never)
        .select(['table_schema as schema', 'table_name as name'] as never)
        .where('table_name' as never, 'in', ['kysely_migration', 'kysely_migration_lock'] as never)
        .execute();
      const where = (tables as { schema: string; name: string }[]).map((t) => `${t.schema}.${t.name}`).sort();
      expect(where).toEqual([
        'public.kysely_migration',
        'public.kysely_migration_lock',
        `${another}.kysely_migration`,
        `${another}.kysely_migration_lock`,
      ]);
      expect(await mirror.db.selectFrom('chains').selectAll().execute()).toEqual([]);
    } finally {
      await mirror.close();
    }
  });

  it('answers 503 when a lock held elsewhere outlasts the bound, then stores the delivery once released', async () => {
    // The bound is `dbBusyTimeoutMs` (10 s by default): a second shows it as well, at 9 s less of waiting.
    const bounds = { ...DEFAULT_STORE_BOUNDS, busyMs: 1_000 };
    const store = await openStore({ migrations: MIRROR_SCHEMA, url, schema: another, logger: silent, bounds });
    const secret = 'whsec-shared';
    const receiver = await startReceiver({ store, port: 0, host: '127.0.0.1', secrets: [secret], logger: silent });
    const holder = new pg.Client(url);
    await holder.connect();
    try {
      const body = JSON.stringify(makeEnvelope({ id: randomUUID() }));
      const post = async () => {
        const res = await request(receiver.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-webhook-signature': sign(secret, body, Math.floor(Date.now() / 1000)) },
          body,
        });
        await res.body.text();
        return res.statusCode;
      };
      await holder.query('begin');
      await holder.query(`lock table ${another}.webhook_deliveries in access exclusive mode`);
      expect(await post()).toBe(503); // after the lock time-out, not never
      await holder.query('rollback');
      expect(await post()).toBe(200);
      const stored = await store.db.selectFrom('webhook_deliveries').selectAll().execute();
      expect(stored).toHaveLength(1);
    } finally {
      await holder.end();
      await receiver.close();
      await store.close();
    }
  });
});
