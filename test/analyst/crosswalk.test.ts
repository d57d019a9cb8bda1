// The asset crosswalk links token-unlock and monitoring assets to `/v1` assets by slug, symbol and name,
// strongest method first, with a confidence that falls when several `/v1` assets match equally.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const NOW = '2026-01-01T00:00:00.000Z';
const mirrored = { raw: '{}', row_hash: 'h', first_seen_at: NOW, synced_at: NOW };

async function seed(store: Store): Promise<void> {
  const asset = (id: number, code: string, title: string, slug: string, rank: number) => ({
    id,
    asset_class: 'token',
    code,
    title,
    slug,
    market_cap_rank: rank,
    ...mirrored,
  });
  await store.db
    .insertInto('assets')
    .values([
      asset(1, 'BTC', 'Bitcoin', 'bitcoin', 1),
      asset(2, 'ETH', 'Ethereum', 'ethereum', 2),
      asset(3, 'SOLX', 'Solana Labs', 'solana-labs-v1', 3),
      asset(4, 'DUP', 'Dup One', 'dup-one', 9),
      asset(5, 'DUP', 'Dup Two', 'dup-two', 5),
      { ...asset(6, 'GONE', 'Gone', 'gone', 6), deleted_at: NOW },
    ])
    .execute();
  const unlock = (id: string, symbol: string, name: string, slug: string) => ({ id, symbol, name, slug, ...mirrored });
  await store.db
    .insertInto('token_unlock_assets')
    .values([
      unlock('u-btc', 'BTC', 'Bitcoin', 'bitcoin'),
      unlock('u-eth', 'eth', 'ETHEREUM', 'eth-token'),
      unlock('u-gone', 'GONE', 'Gone', 'gone'),
    ])
    .execute();
  await store.db
    .insertInto('monitoring_event_assets')
    .values([
      { event_id: 'e1', asset_id: 'm-sol', name: 'solana labs', slug: 'solana', symbol: 'SOL', class: 'primary' },
      { event_id: 'e1', asset_id: 'm-dup', name: 'Dup Token', slug: 'dup-token', symbol: 'dup', class: 'primary' },
      { event_id: 'e2', asset_id: 'm-dup', name: 'Dup Token', slug: 'dup-token', symbol: 'dup', class: 'related' },
      { event_id: 'e2', asset_id: 'm-none', name: 'Nowhere', slug: 'nowhere', symbol: 'NOPE', class: 'primary' },
    ])
    .execute();
  await store.db
    .insertInto('monitoring_events')
    .values([
      { id: 'e1', ...mirrored },
      { id: 'e2', ...mirrored, deleted_at: NOW },
    ])
    .execute();
}

describe.each(dialects)('asset crosswalk on %s', (dialect) => {
  let t: TestStore;
  beforeAll(async () => {
    t = await openTestStore(dialect);
    await seed(t.store);
  });
  afterAll(async () => t?.cleanup());

  it('links each source asset once, by its strongest method, with its confidence', async () => {
    const rows = (await t.store.db
      .selectFrom('v_asset_crosswalk')
      .select(['source', 'source_asset_id', 'v1_asset_id', 'match_method', 'confidence', 'candidates'])
      .orderBy('source')
      .orderBy('source_asset_id')
      .execute()) as Record<string, unknown>[];
    const link = (
      source: string,
      id: string,
      v1: number | null,
      method: string | null,
      confidence: number | null,
      candidates: number | null,
    ) => ({ source, source_asset_id: id, v1_asset_id: v1, match_method: method, confidence, candidates });
    expect(rows.map((r) => ({ ...r, confidence: r.confidence === null ? null : Math.round(Number(r.confidence) * 1000) / 1000 }))).toEqual([
      link('monitoring', 'm-dup', 5, 'symbol', 0.2, 2), // two DUP assets: the better-ranked one, confidence halved
      link('monitoring', 'm-none', null, null, null, null),
      link('monitoring', 'm-sol', 3, 'name', 0.6, 1), // names match case-insensitively
      link('token_unlocks', 'u-btc', 1, 'slug', 0.95, 1),
      link('token_unlocks', 'u-eth', 2, 'symbol_and_name', 0.9, 1),
      link('token_unlocks', 'u-gone', null, null, null, null), // the only candidate is soft-deleted
    ]);
  });

  it('v_event_assets carries the link, so events join market data (live events only)', async () => {
    const rows = (await t.store.db
      .selectFrom('v_event_assets')
      .select(['event_id', 'asset_id', 'v1_asset_id', 'match_method'])
      .orderBy('event_id')
      .orderBy('asset_id')
      .execute()) as Record<string, unknown>[];
    expect(rows).toEqual([
      { event_id: 'e1', asset_id: 'm-dup', v1_asset_id: 5, match_method: 'symbol' },
      { event_id: 'e1', asset_id: 'm-sol', v1_asset_id: 3, match_method: 'name' },
    ]);
  });

  it('stays current as each of its sources changes, in the transaction of the write', async () => {
    const db = t.store.db;
    await db.updateTable('assets').set({ market_cap_rank: 1 }).where('id', '=', 4).execute(); // the DUP tie now goes to 4
    await db.updateTable('assets').set({ deleted_at: NOW }).where('id', '=', 3).execute(); // m-sol's only match is gone
    await db
      .insertInto('assets')
      .values({ id: 7, asset_class: 'token', code: 'NWH', title: 'Nowhere Coin', slug: 'nowhere', ...mirrored })
      .execute();
    await db.updateTable('token_unlock_assets').set({ deleted_at: NOW }).where('id', '=', 'u-eth').execute();
    await db.updateTable('token_unlock_assets').set({ slug: 'dup-two' }).where('id', '=', 'u-gone').execute();
    await t.store.transaction(async (tx) => {
      await tx.db.deleteFrom('monitoring_event_assets').where('event_id', '=', 'e1').execute(); // m-sol gone; m-dup stays (e2)
      await tx.db
        .insertInto('monitoring_event_assets')
        .values({ event_id: 'e1', asset_id: 'm-btc', name: 'BTC', slug: 'bitcoin', symbol: 'btc', class: 'primary' })
        .execute();
    });
    const rows = await db
      .selectFrom('v_asset_crosswalk')
      .select(['source', 'source_asset_id', 'v1_asset_id', 'match_method', 'candidates'])
      .orderBy('source')
      .orderBy('source_asset_id')
      .execute();
    expect(
      rows.map((r) => ({
        ...r,
        v1_asset_id: r.v1_asset_id === null ? null : Number(r.v1_asset_id),
        candidates: r.candidates === null ? null : Number(r.candidates),
      })),
    ).toEqual([
      { source: 'monitoring', source_asset_id: 'm-btc', v1_asset_id: 1, match_method: 'slug', candidates: 1 },
      { source: 'monitoring', source_asset_id: 'm-dup', v1_asset_id: 4, match_method: 'symbol', candidates: 2 },
      { source: 'monitoring', source_asset_id: 'm-none', v1_asset_id: 7, match_method: 'slug', candidates: 1 },
      { source: 'token_unlocks', source_asset_id: 'u-btc', v1_asset_id: 1, match_method: 'slug', candidates: 1 },
      { source: 'token_unlocks', source_asset_id: 'u-gone', v1_asset_id: 5, match_method: 'slug', candidates: 1 },
    ]);
  });
});
