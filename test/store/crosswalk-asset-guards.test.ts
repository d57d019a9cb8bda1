// The crosswalk's triggers on `assets` recompute only when a source's keys meet the asset's old or new
// slug, code or title (SQLite: migration 0064). Whatever an asset's write meets or stops meeting (by
// slug, by symbol, by name, before and after it changes), the table they keep equals the one computed
// from scratch. On PostgreSQL the recomputation runs once at a transaction's commit (migration 0072), over
// everything its statements noted.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refillCrosswalk } from '../../schema/migrations/0060-asset-crosswalk-table.js';
import type { Store } from '../../src/store/index.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const NOW = '2026-01-01T00:00:00.000Z';
const mirrored = { raw: '{}', row_hash: 'h', first_seen_at: NOW, synced_at: NOW };
const asset = (id: number, code: string, title: string, slug: string, rank: number) => ({
  id,
  asset_class: 'token',
  code,
  title,
  slug,
  market_cap_rank: rank,
  ...mirrored,
});

async function kept(store: Store): Promise<unknown[]> {
  const rows = await store.db
    .selectFrom('asset_crosswalk')
    .select(['source', 'source_asset_id', 'v1_asset_id', 'match_method', 'confidence', 'candidates'])
    .orderBy('source')
    .orderBy('source_asset_id')
    .execute();
  return rows.map((r) => ({
    ...r,
    v1_asset_id: r.v1_asset_id === null ? null : Number(r.v1_asset_id),
    confidence: r.confidence === null ? null : Number(r.confidence),
    candidates: r.candidates === null ? null : Number(r.candidates),
  }));
}

/** What the triggers kept, then the same table computed from scratch (which replaces it). */
async function keptAndFromScratch(store: Store): Promise<[unknown[], unknown[]]> {
  const before = await kept(store);
  await refillCrosswalk(store.db, store.dialect);
  return [before, await kept(store)];
}

describe.each(dialects)('the crosswalk kept through guarded asset triggers on %s', (dialect) => {
  let t: TestStore;
  beforeAll(async () => {
    t = await openTestStore(dialect);
    const unlock = (id: string, symbol: string, name: string, slug: string) => ({ id, symbol, name, slug, ...mirrored });
    await t.store.db
      .insertInto('token_unlock_assets')
      .values([unlock('u-alpha', 'ALP', 'Alpha', 'alpha'), unlock('u-beta', 'BET', 'Beta Coin', 'beta-coin')])
      .execute();
    await t.store.db
      .insertInto('monitoring_event_assets')
      .values({ event_id: 'e1', asset_id: 'm-gamma', name: 'Gamma', slug: 'gamma', symbol: 'GAM', class: 'primary' })
      .execute();
  });
  afterAll(async () => t?.cleanup());

  it('links what an insert meets and leaves the rest, as a recomputation from scratch does', async () => {
    await t.store.db
      .insertInto('assets')
      .values([
        asset(1, 'ALP', 'Alpha', 'alpha', 3), // slug
        asset(2, 'gam', 'Other', 'other', 2), // symbol only
        asset(3, 'ZZZ', 'beta coin', 'zzz', 1), // name only
        ...Array.from({ length: 20 }, (_, i) => asset(100 + i, `N${i}`, `Nobody ${i}`, `nobody-${i}`, 10 + i)), // none
      ])
      .execute();
    const [triggers, scratch] = await keptAndFromScratch(t.store);
    expect(triggers).toEqual(scratch);
    expect(triggers).toHaveLength(3);
  });

  it("relinks the sources an update's old or new keys meet, and a delete's", async () => {
    const db = t.store.db;
    await db.updateTable('assets').set({ title: 'Gamma', code: 'GAM' }).where('id', '=', 105).execute(); // now meets m-gamma
    await db.updateTable('assets').set({ slug: 'alpha-old', code: 'OLD', title: 'Old' }).where('id', '=', 1).execute(); // stops meeting u-alpha
    await db.updateTable('assets').set({ market_cap_rank: 1 }).where('id', '=', 107).execute(); // meets nothing
    await db.deleteFrom('assets').where('id', '=', 3).execute(); // u-beta loses its name match
    const [triggers, scratch] = await keptAndFromScratch(t.store);
    expect(triggers).toEqual(scratch);
  });

  it('recomputes, at the commit of a transaction of many statements and rows, what each source wrote', async () => {
    let noted: { kind: string; n: number }[] = [];
    await t.store.transaction(async (tx) => {
      await tx.db
        .insertInto('token_unlock_assets')
        .values([
          { id: 'u-delta', symbol: 'DEL', name: 'Delta', slug: 'delta', ...mirrored },
          { id: 'u-eps', symbol: 'EPS', name: 'Epsilon', slug: 'epsilon', ...mirrored },
        ])
        .execute();
      await tx.db
        .insertInto('assets')
        .values([asset(200, 'DEL', 'Delta', 'delta', 4), asset(201, 'eps', 'Other', 'other-eps', 5), asset(202, 'ZED', 'Zed', 'zed', 6)])
        .execute();
      await tx.db.updateTable('assets').set({ slug: 'epsilon' }).where('id', '=', 202).execute(); // now u-eps's slug match
      await tx.db
        .insertInto('monitoring_event_assets')
        .values([
          { event_id: 'e2', asset_id: 'm-delta', name: 'Delta', slug: 'delta', symbol: 'DEL', class: 'primary' },
          { event_id: 'e2', asset_id: 'm-zed', name: 'Zed', slug: 'zed-x', symbol: 'ZED', class: 'primary' },
        ])
        .execute();
      if (dialect === 'postgres') {
        const found = await sql<{ kind: string; n: number }>`select kind, count(*)::int as n from asset_crosswalk_pending
          where txid = txid_current() group by kind order by kind`.execute(tx.db);
        noted = found.rows;
      }
    });
    const [triggers, scratch] = await keptAndFromScratch(t.store);
    expect(triggers).toEqual(scratch);
    expect(triggers).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ source: 'token_unlocks', source_asset_id: 'u-delta', v1_asset_id: 200, match_method: 'slug' }),
        expect.objectContaining({ source: 'token_unlocks', source_asset_id: 'u-eps', v1_asset_id: 202, match_method: 'slug' }),
        expect.objectContaining({ source: 'monitoring', source_asset_id: 'm-delta', v1_asset_id: 200, match_method: 'slug' }),
        expect.objectContaining({ source: 'monitoring', source_asset_id: 'm-zed', v1_asset_id: 202, match_method: 'symbol_and_name' }),
      ]),
    );
    if (dialect === 'postgres') {
      // One `due` row a transaction: the deferred recomputation fires for it alone, not once per noted row.
      expect(noted).toEqual([
        { kind: 'asset', n: 5 }, // three inserted, and the update's old and new keys
        { kind: 'due', n: 1 },
        { kind: 'monitoring', n: 2 },
        { kind: 'token_unlocks', n: 2 },
      ]);
      const left = await sql<{ n: number }>`select count(*)::int as n from asset_crosswalk_pending`.execute(t.store.db);
      expect(left.rows[0]!.n).toBe(0);
    }
  });
});
