// @end-to-end
// The assets-top tier on both stores: one request per asset class, the first topAssets of each class by
// market_cap.rank, and never a soft delete (it is not a complete pass).
import { describe, expect, it } from 'vitest';
import { dialects } from '../helpers/stores.js';
import { syncOnce } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { sandboxWithStore } from '../helpers/sandbox-store.js';

interface SandboxAsset {
  id: number;
  asset_class: string;
  market_cap: { rank: number | null } | null;
}

for (const dialect of dialects) {
  describe(`assets-top on ${dialect}`, () => {
    const fx = sandboxWithStore(dialect, { start: PINNED_START, scale: 0.5, seed: 3 });

    it('reads the top of each class by rank in one request per class, and deletes nothing', async () => {
      const top = 40;
      const first = await syncOnce(fx.t.store, fx.sandbox, ['assets-top'], { settings: { topAssets: top } });
      expect(first.outcome).toBe('success');
      expect(first.requests).toBe(3);
      const rows = await fx.t.store.db.selectFrom('assets').select(['id', 'asset_class']).where('deleted_at', 'is', null).execute();
      for (const cls of ['token', 'equity', 'tokenizedStock']) {
        const ranked = (fx.sandbox.records('assets') as SandboxAsset[])
          .filter((a) => a.asset_class === cls)
          .sort((a, b) => (a.market_cap?.rank ?? Infinity) - (b.market_cap?.rank ?? Infinity) || a.id - b.id)
          .slice(0, top)
          .map((a) => a.id)
          .sort((a, b) => a - b);
        const mirrored = rows
          .filter((r) => r.asset_class === cls)
          .map((r) => Number(r.id))
          .sort((a, b) => a - b);
        expect(mirrored, cls).toEqual(ranked);
      }
      // A complete pass fills the rest; the tier run after it leaves every other asset live.
      expect((await syncOnce(fx.t.store, fx.sandbox, ['assets'])).outcome).toBe('success');
      const again = await syncOnce(fx.t.store, fx.sandbox, ['assets-top'], { settings: { topAssets: top } });
      expect(again.streams[0].deleted).toBe(0);
      const live = await fx.t.store.db
        .selectFrom('assets')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      expect(Number(live?.n)).toBe(fx.sandbox.records('assets').length);
    });
  });
}
