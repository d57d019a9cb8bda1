// @end-to-end
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LeaseHeldError } from '../../src/store/index.js';
import { dialects, openTestStore } from '../helpers/stores.js';
import { tryLeaseTwiceInChild } from './store-child-runner.js';
import type { TestStore } from '../helpers/stores.js';
import type { Store } from '../../src/store/index.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// Expiry is simulated by moving a lease's expiry into the past, not by sleeping through a short
// time-to-live: on a busy machine a sleep and the statements around it can take any time.
for (const dialect of dialects) {
  describe(`leases (${dialect})`, () => {
    // One store per dialect for the file: each case takes leases of other names (a PostgreSQL database per
    // case cost more than the case).
    let t: TestStore;
    let other: Store; // a second connection (SQLite) or pool (PostgreSQL) on the same database
    beforeAll(async () => {
      t = await openTestStore(dialect);
      other = await t.openAnother();
    });
    afterAll(() => t?.cleanup());

    /** As if the lease's time-to-live had run out (its owner crashed and stopped renewing). */
    const expire = (name: string) =>
      t.store.db
        .updateTable('leases')
        .set({ expires_at: new Date(Date.now() - 60_000).toISOString() })
        .where('name', '=', name)
        .execute();

    it('refuses a second owner while the lease is live, naming the holder', async () => {
      const lease = await t.store.acquireLease('sync:assets', 'worker-a', 60_000);
      expect(lease?.name).toBe('sync:assets');
      expect(await other.acquireLease('sync:assets', 'worker-b', 60_000)).toBeNull();
      expect((await other.leaseHolder('sync:assets'))?.owner).toBe('worker-a');
      const refused = await other.holdLease('sync:assets', 'worker-b', 60_000).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(LeaseHeldError);
      expect((refused as LeaseHeldError).code).toBe('DS_LEASE_HELD');
      expect((refused as Error).message).toMatch(/"sync:assets" is already running: its lease is held by worker-a until \d{4}-/);
      // Other names are independent, and the owner may take its own lease again.
      expect(await other.acquireLease('sync:projects', 'worker-b', 60_000)).not.toBeNull();
      expect(await t.store.acquireLease('sync:assets', 'worker-a', 60_000)).not.toBeNull();
    });

    it('lets exactly one of many concurrent takers win', async () => {
      const attempts = Array.from({ length: 10 }, (_, i) => (i % 2 ? other : t.store).acquireLease('receiver', `worker-${i}`, 60_000));
      const won = (await Promise.all(attempts)).filter((lease) => lease !== null);
      expect(won).toHaveLength(1);
    });

    it('is taken over once it expires, and the old owner learns it on renew', async () => {
      const first = await t.store.acquireLease('sync:chains', 'crashed-worker', 60_000);
      expect(first).not.toBeNull();
      expect(await other.acquireLease('sync:chains', 'worker-b', 60_000)).toBeNull();
      await expire('sync:chains');
      expect(await other.leaseHolder('sync:chains')).toBeNull();
      expect(await other.acquireLease('sync:chains', 'worker-b', 60_000)).not.toBeNull();
      expect(await first!.renew()).toBe(false);
      expect((await t.store.leaseHolder('sync:chains'))?.owner).toBe('worker-b');
    });

    it('renew pushes the expiry forward; release frees it at once', async () => {
      const lease = (await t.store.acquireLease('sync:glossary', 'worker-a', 60_000))!;
      const before = (await t.store.leaseHolder('sync:glossary'))!.expiresAt;
      await sleep(20); // a later renewal, so a later expiry
      expect(await lease.renew()).toBe(true);
      const after = (await t.store.leaseHolder('sync:glossary'))!.expiresAt;
      expect(Date.parse(after)).toBeGreaterThan(Date.parse(before));
      expect(await other.acquireLease('sync:glossary', 'worker-b', 60_000)).toBeNull();
      // Renewing an expired lease nobody took brings it back for its owner.
      await expire('sync:glossary');
      expect(await lease.renew()).toBe(true);
      expect(await other.acquireLease('sync:glossary', 'worker-b', 60_000)).toBeNull();
      await lease.release();
      expect(await other.acquireLease('sync:glossary', 'worker-b', 60_000)).not.toBeNull();
    });

    it('gives another process a clear message while the lease is held, and the lease once free', async () => {
      const lease = (await t.store.acquireLease('sync:charts', 'worker-parent', 60_000))!;
      // One child process: refused while the parent holds the lease, then takes it once released.
      const [refused, taken] = await tryLeaseTwiceInChild(t, 'sync:charts', 'worker-child', () => lease.release());
      expect(refused.taken).toBe(false);
      expect(refused.code).toBe('DS_LEASE_HELD');
      expect(refused.message).toContain('held by worker-parent until');
      expect(refused.message).toMatch(dialect === 'sqlite' ? /another ds-mirror process .* SQLite file/ : /another worker holds it/);
      expect(taken).toEqual({ taken: true });
    });
  });
}
