// @end-to-end
// One content hash for the sync and the webhook receiver, chosen so that mirrors written by earlier
// versions stay correct: rows, pages and fan-out parents were hashed SHA-1 base64url and still are (a
// new algorithm would make every row a "change" and row_history a version of each); developments the
// receiver inserted were hashed SHA-256 hex, and those hashes are only ever compared with themselves.
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { contentHash } from '../../src/content-hash.js';
import { deliveryRows } from '../../src/receiver/delivery-rows.js';
import { ALL_DETAILS, NO_DETAILS, syncOnce } from '../helpers/mirror.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { monitoringParams } from '../../src/catalog/query-params.js';
import { makeEnvelope } from '../receiver/webhook-fixtures.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

const count = async (t: TestStore, table: string) =>
  Number(
    (
      await t.store.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('the content hash', () => {
  it('is the SHA-1 base64url that mirrors already hold', () => {
    const text = '{"id":1,"name":"Bitcoin"}';
    expect(contentHash(text)).toBe('zTRtt1dWImdLBEqPLMR1-ZvIjN8');
    expect(contentHash(Buffer.from(text))).toBe(createHash('sha1').update(text).digest('base64url'));
  });

  it("is the receiver's too: a delivered development is hashed like a synced row", () => {
    const { development } = deliveryRows({
      envelope: makeEnvelope() as never,
      body: '{}',
      signed: true,
      receivedAt: new Date().toISOString(),
    });
    expect(development.row_hash).toBe(contentHash(String(development.raw)));
  });
});

for (const dialect of dialects) {
  describe(`a mirror written before the one hash, on ${dialect}`, () => {
    let sandbox: Sandbox;
    let t: TestStore;
    const settings = {
      monitoring: { views: [], events: {}, tokenUnlocks: {}, fullPassEveryHours: 24, params: monitoringParams(), details: ALL_DETAILS },
    };

    beforeAll(async () => {
      sandbox = await startSandbox({ start: PINNED_START, scale: 0.1, seed: 5 });
      t = await openTestStore(dialect);
    });
    afterAll(async () => {
      await t?.cleanup();
      await sandbox?.close();
    });

    it('re-reads unchanged lists and pages without writing a row or a history version', async () => {
      await syncOnce(t.store, sandbox, ['chains', 'glossary']);
      const hashes = await t.store.db.selectFrom('chains').select('row_hash').execute();
      for (const { row_hash } of hashes) expect(row_hash).toMatch(/^[A-Za-z0-9_-]{27}$/); // SHA-1 base64url, as released
      const again = await syncOnce(t.store, sandbox, ['chains', 'glossary'], { settings: { mode: 'full' } });
      expect(again.streams.map((s) => [s.stream, s.outcome, s.inserted + s.updated])).toEqual([
        ['chains', 'success', 0],
        ['glossary', 'success', 0],
      ]);
      expect(await count(t, 'row_history')).toBe(0);
    });

    it("completes a development a webhook inserted with the old receiver's SHA-256 hex hash", async () => {
      // The lists alone: the one detail this case reads is fetched below (the others, a request each, are
      // marked fetched: the backlog is that one development).
      await syncOnce(t.store, sandbox, ['monitoring-events'], {
        settings: { monitoring: { ...settings.monitoring, details: NO_DETAILS } },
      });
      const dev = await t.store.db
        .selectFrom('monitoring_developments')
        .select(['id', 'raw'])
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
      await t.store.db.updateTable('monitoring_developments').set({ detail_fetched_at: new Date().toISOString() }).execute();
      // As the receiver of earlier versions left it: its own hash, the detail still to fetch.
      const legacy = createHash('sha256').update(randomUUID()).digest('hex');
      await t.store.db
        .updateTable('monitoring_developments')
        .set({ row_hash: legacy, detail_fetched_at: null })
        .where('id', '=', dev.id)
        .execute();
      const history = await count(t, 'row_history');
      const result = await syncOnce(t.store, sandbox, ['monitoring-events'], { settings });
      expect(result.outcome).toBe('success');
      expect(result.streams[0]!.requests).toBeLessThan(20); // the one detail, not every development's
      const after = await t.store.db
        .selectFrom('monitoring_developments')
        .select(['row_hash', 'detail_fetched_at'])
        .where('id', '=', dev.id)
        .executeTakeFirstOrThrow();
      expect(after.detail_fetched_at).not.toBeNull(); // the pending detail matched its stored hash by value
      expect(after.row_hash).toBe(legacy);
      expect(await count(t, 'row_history')).toBe(history); // the hash was kept: no version recorded
    });
  });
}
