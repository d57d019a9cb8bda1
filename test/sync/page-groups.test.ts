// Consecutive changed pages of a list share a transaction (#25): a first sync of 100-record pages
// commits about one transaction per five pages, and the mirror is the same as the service's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { syncOnce, countingTransactions } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

for (const dialect of dialects) {
  describe(`page groups on ${dialect}`, () => {
    let sandbox: Sandbox;
    let t: TestStore;
    beforeAll(async () => {
      sandbox = await startSandbox({ start: PINNED_START, scale: 1, seed: 5 });
      t = await openTestStore(dialect);
    });
    afterAll(async () => {
      await t?.cleanup();
      await sandbox?.close();
    });

    it('writes five 100-record pages in one transaction on a first sync', async () => {
      const { store, transactions } = countingTransactions(t.store);
      const result = await syncOnce(store, sandbox, ['sec-filings']);
      expect(result.outcome).toBe('success');
      const rows = sandbox.records('sec-filings').length;
      const pages = Math.floor(rows / 100) + 1;
      expect(pages).toBeGreaterThan(10);
      // One per group of five pages, and the few of the run's bookkeeping (not one per page).
      expect(transactions()).toBeLessThanOrEqual(Math.ceil(pages / 5) + 3);
      const live = await t.store.db
        .selectFrom('sec_filings')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
      expect(Number(live.n)).toBe(rows);
    });
  });
}
