// History without extra requests: a changed record leaves exactly one history row (its previous version,
// with validity and runs), a soft delete one, a no-op sync none; the switch per table and the retention.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { DEFAULT_RETENTION_DAYS, pruneHistory } from '../../src/sync/prune-history.js';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { syncOnce } from '../helpers/mirror.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

const STREAMS = ['assets', 'market-stats', 'token-unlocks'];

async function count(store: Store, table: string, only?: string): Promise<number> {
  let query = store.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n'));
  if (only) query = query.where('table_name', '=', only);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}
async function rawOf(store: Store, id: number): Promise<unknown> {
  const row = await store.db.selectFrom('assets').select('raw').where('id', '=', id).executeTakeFirstOrThrow();
  return JSON.parse(String(row.raw));
}

describe.each(dialects)('row history on %s', (dialect) => {
  let sb: Sandbox;
  let t: TestStore;
  let store: Store;

  beforeAll(async () => {
    sb = await startSandbox({ start: PINNED_START, scale: 0.1, seed: 5 });
    t = await openTestStore(dialect);
    store = t.store;
    await syncOnce(store, sb, STREAMS);
  }, 120_000);
  afterAll(async () => {
    await t?.cleanup();
    await sb?.close();
  });

  it('a first sync and a no-op sync leave no history', async () => {
    expect(await count(store, 'row_history')).toBe(0);
    const again = await syncOnce(store, sb, STREAMS);
    expect(again.streams.every((s) => s.updated === 0 && s.deleted === 0)).toBe(true);
    expect(await count(store, 'row_history')).toBe(0);
  });

  it('a changed record leaves exactly one history row: its previous version, valid until the change', async () => {
    const report = await sb.advance({ seconds: 3600, updateFraction: 0.02, addFraction: 0, removeFraction: 0.01 });
    const updated = report.resources.assets.updated.map(Number);
    const removed = report.resources.assets.removed.map(Number);
    expect(updated.length).toBeGreaterThan(0);
    expect(removed.length).toBeGreaterThan(0);
    const before = new Map<number, unknown>();
    for (const id of [...updated, ...removed]) before.set(id, await rawOf(store, id));
    const beforeSynced = new Map(
      ((await store.db.selectFrom('assets').select(['id', 'synced_at']).execute()) as { id: number; synced_at: string }[]).map((r) => [
        r.id,
        r.synced_at,
      ]),
    );

    const run = await syncOnce(store, sb, STREAMS);
    const assets = run.streams.find((s) => s.stream === 'assets')!;
    const history = (await store.db.selectFrom('row_history').selectAll().where('table_name', '=', 'assets').execute()) as Record<
      string,
      any
    >[];
    expect(history.length).toBe(assets.updated + assets.deleted);
    const byKey = new Map<string, Record<string, any>[]>();
    for (const h of history) byKey.set(h.row_key, [...(byKey.get(h.row_key) ?? []), h]);
    for (const id of updated) {
      const [h, ...more] = byKey.get(String(id)) ?? [];
      expect(more).toEqual([]);
      expect([h.change, JSON.parse(h.raw)]).toEqual(['updated', before.get(id)]);
      expect(h.valid_from).toBe(beforeSynced.get(id));
      const now = await store.db.selectFrom('assets').select('synced_at').where('id', '=', id).executeTakeFirstOrThrow();
      expect(h.valid_to).toBe(now.synced_at);
      expect([Number(h.run_id), Number(h.ended_by_run_id)]).toEqual([1, run.runId]);
    }
    for (const id of removed) {
      const [h, ...more] = byKey.get(String(id)) ?? [];
      expect(more).toEqual([]);
      expect([h.change, JSON.parse(h.raw)]).toEqual(['deleted', before.get(id)]);
    }
    // The versions view answers "as of": before the run, the previous version; now, the current one.
    const id = updated[0];
    const asOf = async (at: string) =>
      (await store.db
        .selectFrom('v_assets_history')
        .select(['price_usd', 'market_cap_usd'])
        .where('id', '=', id)
        .where('valid_from', '<=', at)
        .where((eb) => eb.or([eb('valid_to', 'is', null), eb('valid_to', '>', at)]))
        .execute()) as { price_usd: number; market_cap_usd: number }[];
    const old = before.get(id) as { price: { usd: number }; market_cap: { usd: number } };
    expect(await asOf(beforeSynced.get(id)!)).toEqual([{ price_usd: old.price.usd, market_cap_usd: old.market_cap.usd }]);
    const current = (await rawOf(store, id)) as typeof old;
    expect(await asOf(new Date().toISOString())).toEqual([{ price_usd: current.price.usd, market_cap_usd: current.market_cap.usd }]);

    const noop = await count(store, 'row_history');
    await syncOnce(store, sb, STREAMS);
    expect(await count(store, 'row_history')).toBe(noop);
  });

  it('history_settings turns a table off; retention prunes versions that ended long enough ago', async () => {
    const held = await count(store, 'row_history', 'assets');
    await store.db
      .insertInto('history_settings')
      .values({ table_name: 'assets', enabled: dialect === 'sqlite' ? 0 : false, retention_days: null })
      .execute();
    await sb.advance({ seconds: 3600, updateFraction: 0.02, addFraction: 0, removeFraction: 0 });
    const run = await syncOnce(store, sb, STREAMS);
    expect(run.streams.find((s) => s.stream === 'assets')!.updated).toBeGreaterThan(0);
    expect(await count(store, 'row_history', 'assets')).toBe(held);

    await store.db.updateTable('history_settings').set({ retention_days: 2 }).where('table_name', '=', 'assets').execute();
    expect(await pruneHistory(store.db, new Date(Date.now() + 86_400_000))).toBe(0);
    expect(await pruneHistory(store.db, new Date(Date.now() + 3 * 86_400_000))).toBe(held);
    expect(await count(store, 'row_history', 'assets')).toBe(0);
  });

  it('a table without a history_settings row keeps DEFAULT_RETENTION_DAYS of versions; retention_days null keeps every one', async () => {
    const others = await count(store, 'row_history');
    expect(others).toBeGreaterThan(0); // market-stats and token-unlocks' versions (the sandbox's advance above)
    const days = (n: number) => new Date(Date.now() + n * 86_400_000);
    expect(await pruneHistory(store.db, days(DEFAULT_RETENTION_DAYS - 1))).toBe(0);
    const kept = await store.db.selectFrom('row_history').select('table_name').distinct().execute();
    const keep = kept[0]!.table_name;
    await store.db
      .insertInto('history_settings')
      .values({ table_name: keep, enabled: store.adapter.toDb(true) as never, retention_days: null })
      .execute();
    const keepCount = await count(store, 'row_history', keep);
    expect(keepCount).toBeLessThan(others); // versions of another table remain to prune by default
    expect(await pruneHistory(store.db, days(DEFAULT_RETENTION_DAYS + 1))).toBe(others - keepCount);
    expect(await count(store, 'row_history')).toBe(keepCount);
  });
});
