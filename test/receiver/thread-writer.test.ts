// The store's writer thread (SQLite on disk) writing deliveries on its own: its connection commits each
// group in one transaction, counts new delivery ids, survives a failing group, and hands the file back on close.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AcceptedDelivery } from '../../src/receiver/delivery-rows.js';
import type { Envelope } from '../../src/receiver/parse-envelope.js';
import { openDeliveryWriter } from '../../src/receiver/open-delivery-writer.js';
import { startSqliteWriter } from '../../src/store/sqlite/sqlite-writer.js';
import { openTestStore, type TestStore } from '../helpers/stores.js';
import { failDeliveryInserts, rowCounts } from './receiver-store.js';
import { makeEnvelope } from './webhook-fixtures.js';

function accepted(env = makeEnvelope()): AcceptedDelivery & { envelope: Envelope } {
  const body = JSON.stringify(env);
  return {
    envelope: env as Envelope,
    body,
    signed: true,
    receivedAt: new Date().toISOString(),
    changes: [],
    setAside: null,
    coerced: false,
  };
}

describe('SQLite writer thread', () => {
  let t: TestStore;
  beforeEach(async () => {
    t = await openTestStore('sqlite');
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('commits a group, counting only (delivery, view) pairs not stored before', async () => {
    const writer = await openDeliveryWriter(t.store);
    try {
      const first = accepted();
      expect((await writer.write([first, accepted()])).inserted).toBe(2);
      // A retry, and the same delivery id to a second view: one new pair, a second alert.
      const second = structuredClone(first.envelope) as any;
      second.data.view.id = crypto.randomUUID();
      expect((await writer.write([first, accepted(second)])).inserted).toBe(1);
      expect(await rowCounts(t.store, first.envelope)).toEqual({ deliveries: 1, pairs: 2, alerts: 2, developments: 1 });
      const row = await t.store.db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('id', '=', first.envelope.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ body: first.body, signed: 1, received_at: first.receivedAt });
    } finally {
      await writer.close();
    }
  });

  it('commits the groups that queued meanwhile together, each answered with its own count', async () => {
    const writer = await openDeliveryWriter(t.store);
    try {
      const first = accepted();
      const results = await Promise.all([writer.write([first]), writer.write([first, accepted()]), writer.write([accepted()])]);
      expect(results.map((r) => r.inserted)).toEqual([1, 1, 1]);
      // The first commit may hold the first group alone; the two behind it go in one commit together.
      expect(results[1].commit).toBe(results[2].commit);
    } finally {
      await writer.close();
    }
  });

  it('rejects a group whose commit fails, with nothing of it stored, and commits the next one', async () => {
    const writer = await openDeliveryWriter(t.store);
    try {
      const restore = await failDeliveryInserts(t.store);
      const failed = [accepted(), accepted()];
      await expect(writer.write(failed)).rejects.toThrow('disk I/O error (injected)');
      await restore();
      expect(await rowCounts(t.store)).toEqual({ deliveries: 0, pairs: 0, alerts: 0, developments: 0 });
      expect((await writer.write(failed)).inserted).toBe(2);
    } finally {
      await writer.close();
    }
  });

  it('goes through the thread, not the store', async () => {
    const writer = await openDeliveryWriter(t.store);
    try {
      expect(writer.maxInFlight).toBe(Infinity); // the store's own writer takes one group at a time
    } finally {
      await writer.close();
    }
  });

  it('refuses to start on a file it cannot open', async () => {
    await expect(startSqliteWriter('/nonexistent-dir/mirror.db')).rejects.toThrow(/unable to open|directory does not exist/);
  });
});
