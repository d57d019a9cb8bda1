// A page of new assets is written with the crosswalk's insert trigger set aside while the crosswalk is
// empty (on SQLite, created again before the commit: src/store/sqlite/sqlite-idle-triggers.ts). Whatever
// a transaction holds (new assets alone, assets after a source arrived in it, a rollback), the crosswalk
// equals the one computed from scratch and the trigger is there after, as it was. A first load keeps it
// out across its transactions; one left out by a load that never ended comes back, with the links it
// missed, at the next page of new assets and at the next open.
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { refillCrosswalk } from '../../schema/migrations/0060-asset-crosswalk-table.js';
import type { Row, Store } from '../../src/store/index.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const NOW = '2026-01-01T00:00:00.000Z';
const asset = (id: number, code: string, title: string, slug: string): Row => ({
  id,
  asset_class: 'token',
  code,
  title,
  slug,
  market_cap_rank: id,
  raw: JSON.stringify({ id }),
  row_hash: `h${id}`,
});
const nobody = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => asset(from + i, `N${from + i}`, `Nobody ${from + i}`, `nobody-${from + i}`));
const unlock = (id: string, symbol: string, name: string, slug: string) => ({
  id,
  symbol,
  name,
  slug,
  raw: '{}',
  row_hash: 'h',
  first_seen_at: NOW,
  synced_at: NOW,
});

async function crosswalk(store: Store): Promise<string[]> {
  const rows = await store.db
    .selectFrom('asset_crosswalk')
    .select(['source', 'source_asset_id', 'v1_asset_id', 'match_method'])
    .orderBy('source_asset_id')
    .execute();
  return rows.map((r) => `${r.source}/${r.source_asset_id} → ${r.v1_asset_id === null ? null : Number(r.v1_asset_id)} ${r.match_method}`);
}

/** What the trigger kept, then the same computed from scratch. */
async function keptAndFromScratch(store: Store): Promise<[string[], string[]]> {
  const kept = await crosswalk(store);
  await refillCrosswalk(store.db, store.dialect);
  return [kept, await crosswalk(store)];
}

/** The insert trigger's text (SQLite; PostgreSQL keeps its statement triggers, never set aside). */
async function triggerText(store: Store): Promise<string | null> {
  if (store.dialect !== 'sqlite') return null;
  const { rows } = await sql<{
    sql: string;
  }>`select sql from sqlite_master where type = 'trigger' and name = 'asset_crosswalk_assets_insert'`.execute(store.db);
  return rows[0]?.sql ?? 'missing';
}

describe.each(dialects)('pages of new assets and the crosswalk trigger on %s', (dialect) => {
  // One database per dialect for the file, emptied of the tables the cases write, and a store opened on it
  // per case (what a store keeps between transactions starts afresh): a PostgreSQL database per case cost
  // more than the case.
  let shared: TestStore;
  let t: { store: Store; openAnother(): Promise<Store> };
  let initial: string | null;
  let before: string | null;
  const upsert = (rows: Row[]) => t.store.transaction((tx) => tx.upsertChanged('assets', ['id'], rows, NOW));
  beforeAll(async () => {
    shared = await openTestStore(dialect);
    initial = await triggerText(shared.store);
  });
  afterAll(() => shared?.cleanup());
  beforeEach(async () => {
    for (const table of ['token_unlock_assets', 'assets', 'asset_crosswalk'] as const) await shared.store.db.deleteFrom(table).execute();
    t = { store: await shared.openAnother(), openAnother: () => shared.openAnother() };
    expect(await crosswalk(t.store)).toEqual([]);
    before = await triggerText(t.store);
    expect(before).toBe(initial); // as a fresh install has it, whatever the case before did
  });
  afterEach(() => t.store.close());

  it('writes a first load into an empty crosswalk, which stays empty, and the trigger is there after as it was', async () => {
    expect(await upsert(nobody(1, 600))).toMatchObject({ inserted: 600 });
    expect(await upsert(nobody(601, 300))).toMatchObject({ inserted: 300 });
    expect(await crosswalk(t.store)).toEqual([]);
    expect(await triggerText(t.store)).toBe(before);
    // PostgreSQL keeps its trigger as it is (triggerText reads SQLite's schema only).
    expect(before).toEqual(
      dialect === 'sqlite' ? expect.stringMatching(/^CREATE TRIGGER asset_crosswalk_assets_insert after insert on assets/) : null,
    );
  });

  it('links the assets written after a source arrived in the same transaction', async () => {
    await t.store.transaction(async (tx) => {
      await tx.upsertChanged('assets', ['id'], nobody(1, 300), NOW); // the crosswalk is empty: set aside
      await tx.db
        .insertInto('token_unlock_assets')
        .values(unlock('u-alpha', 'ALP', 'Alpha', 'alpha'))
        .execute();
      await tx.upsertChanged('assets', ['id'], [asset(1000, 'ALP', 'Alpha', 'alpha'), ...nobody(1001, 10)], NOW);
    });
    const [kept, scratch] = await keptAndFromScratch(t.store);
    expect(kept).toEqual(scratch);
    expect(kept).toEqual(['token_unlocks/u-alpha → 1000 slug']);
    expect(await triggerText(t.store)).toBe(before);
  });

  it('links a first load of assets that sources were waiting for', async () => {
    await t.store.db
      .insertInto('token_unlock_assets')
      .values([unlock('u-alpha', 'ALP', 'Alpha', 'alpha'), unlock('u-beta', 'BET', 'Beta', 'beta')])
      .execute();
    await upsert([...nobody(1, 300), asset(500, 'ALP', 'Alpha', 'alpha'), asset(501, 'bet', 'Other', 'other')]);
    const [kept, scratch] = await keptAndFromScratch(t.store);
    expect(kept).toEqual(scratch);
    expect(kept).toEqual(['token_unlocks/u-alpha → 500 slug', 'token_unlocks/u-beta → 501 symbol']);
  });

  it('leaves the trigger in place when the transaction fails after a page of new assets', async () => {
    const failed = t.store.transaction(async (tx) => {
      await tx.upsertChanged('assets', ['id'], nobody(1, 300), NOW);
      throw new Error('the page group fails');
    });
    await expect(failed).rejects.toThrow('the page group fails');
    expect(await triggerText(t.store)).toBe(before);
    // ...and a source then meets assets written later, as the trigger links them.
    await t.store.db
      .insertInto('token_unlock_assets')
      .values(unlock('u-gamma', 'GAM', 'Gamma', 'gamma'))
      .execute();
    await upsert([asset(7, 'GAM', 'Gamma', 'gamma')]);
    expect(await crosswalk(t.store)).toEqual(['token_unlocks/u-gamma → 7 slug']);
  });

  it('left out by a load that never ended, comes back with the links it missed: at the next page, and at the next open', async () => {
    // What a killed first load leaves (SQLite): no trigger, while a source and its asset arrive.
    if (dialect === 'sqlite') await sql`drop trigger asset_crosswalk_assets_insert`.execute(t.store.db);
    await t.store.db
      .insertInto('token_unlock_assets')
      .values([unlock('u-alpha', 'ALP', 'Alpha', 'alpha'), unlock('u-beta', 'BET', 'Beta', 'beta')])
      .execute();
    await t.store.db
      .insertInto('assets')
      .values({ ...asset(500, 'ALP', 'Alpha', 'alpha'), first_seen_at: NOW, synced_at: NOW })
      .execute();
    // A store kept open: its next page of new assets brings it back and links what it missed.
    await upsert([asset(501, 'bet', 'Other', 'other')]);
    expect(await triggerText(t.store)).toBe(before);
    let [kept, scratch] = await keptAndFromScratch(t.store);
    expect(kept).toEqual(scratch);
    expect(kept).toEqual(['token_unlocks/u-alpha → 500 slug', 'token_unlocks/u-beta → 501 symbol']);
    // The next open of the file (the repeatable `deferred-indexes`) does the same.
    if (dialect === 'sqlite') await sql`drop trigger asset_crosswalk_assets_insert`.execute(t.store.db);
    await t.store.db
      .insertInto('assets')
      .values({ ...asset(502, 'GAM', 'Gamma', 'alpha'), market_cap_rank: 0, first_seen_at: NOW, synced_at: NOW })
      .execute();
    const reopened = await t.openAnother();
    expect(await triggerText(reopened)).toBe(before);
    [kept, scratch] = await keptAndFromScratch(reopened);
    expect(kept).toEqual(scratch);
    expect(kept).toEqual(['token_unlocks/u-alpha → 502 slug', 'token_unlocks/u-beta → 501 symbol']);
  });
});
