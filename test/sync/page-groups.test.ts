// Consecutive changed pages of a list share a transaction (#25): a first sync of 100-record pages
// commits about one transaction per five pages, and the mirror is the same as the service's.
import { describe, expect, it } from 'vitest';
import { dialects } from '../helpers/stores.js';
import { syncOnce, countingTransactions } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { sandboxWithStore } from '../helpers/sandbox-store.js';

for (const dialect of dialects) {
  describe(`page groups on ${dialect}`, () => {
    const fx = sandboxWithStore(dialect, { start: PINNED_START, scale: 1, seed: 5 });

    it('writes five 100-record pages in one transaction on a first sync', async () => {
      const { store, transactions } = countingTransactions(fx.t.store);
      const result = await syncOnce(store, fx.sandbox, ['sec-filings']);
      expect(result.outcome).toBe('success');
      const rows = fx.sandbox.records('sec-filings').length;
      const pages = Math.floor(rows / 100) + 1;
      expect(pages).toBeGreaterThan(10);
      // One per group of five pages, and the few of the run's bookkeeping (not one per page).
      expect(transactions()).toBeLessThanOrEqual(Math.ceil(pages / 5) + 3);
      const live = await fx.t.store.db
        .selectFrom('sec_filings')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
      expect(Number(live.n)).toBe(rows);
    });
  });
}
