// Every worked example of docs/analyst.md (docs/examples/) runs on both stores against the same synced
// sandbox mirror (a first sync, the sandbox's clock advanced, an incremental sync) and gives the
// same, non-empty answer on both; docs/analyst.md shows exactly these examples. The sandbox is started
// as a user starts it, without --start (its clock is now), so the questions about "now" and "the last
// 30 days" have answers; each answer is checked against the sandbox or the base tables.
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/index.js';
import { readSection } from '../../src/dictionary/readme-section.js';
import { examplesMarkdown, workedExamples } from '../../src/dictionary/worked-examples.js';
import type { Store } from '../../src/store/index.js';
import { openTestStore, type TestStore } from '../helpers/stores.js';
import { analystSandbox, neutral, syncAll } from './analyst-fixture.js';

const EXAMPLES = workedExamples();

async function answer(store: Store, name: string): Promise<Record<string, unknown>[]> {
  const example = EXAMPLES.find((e) => e.name === name)!;
  const { rows } = await sql.raw<Record<string, unknown>>(example.sql[store.dialect]).execute(store.db);
  return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, neutral(v)])));
}

describe('worked examples', () => {
  let sb: Sandbox;
  let lite: TestStore;
  let pg: TestStore;

  beforeAll(async () => {
    sb = await analystSandbox();
    lite = await openTestStore('sqlite');
    pg = await openTestStore('postgres');
    await syncAll(lite.store, sb);
    await syncAll(pg.store, sb);
    await sb.advance({ seconds: 86_400, updateFraction: 0.02, addFraction: 0.01, removeFraction: 0.005 });
    await syncAll(lite.store, sb);
    await syncAll(pg.store, sb);
  }, 300_000);
  afterAll(async () => {
    await lite?.cleanup();
    await pg?.cleanup();
    await sb?.close();
  });

  it('there are the eight questions of docs/analyst.md', () => {
    expect(EXAMPLES.map((e) => e.name)).toEqual([
      '01-top-assets',
      '02-unlocks-ahead',
      '03-high-importance-events-per-category-week',
      '04-alerts-per-view-per-day',
      '05-most-discussed-assets',
      '06-daily-market-series',
      '07-yesterdays-values',
      '08-what-changed-in-the-last-run',
    ]);
  });

  it.each(EXAMPLES.map((e) => e.name))('%s: the same answer on SQLite and PostgreSQL', async (name) => {
    const [a, b] = [await answer(lite.store, name), await answer(pg.store, name)];
    expect(a.length).toBeGreaterThan(0);
    expect(b).toEqual(a);
  });

  it('the answers are right: checked against the base tables', async () => {
    const top = await answer(lite.store, '01-top-assets');
    const raw = (
      await lite.store.db
        .selectFrom('assets')
        .select('raw')
        .where('deleted_at', 'is', null)
        .where('asset_class', '=', 'token')
        .where('market_cap_rank', 'is not', null)
        .orderBy('market_cap_rank')
        .orderBy('id')
        .limit(1)
        .executeTakeFirstOrThrow()
    ).raw;
    const first = JSON.parse(String(raw));
    expect(top[0]).toMatchObject({ title: first.title, price_usd: first.price.usd, market_cap_usd: first.market_cap.usd });

    const changed = await answer(lite.store, '08-what-changed-in-the-last-run');
    const [{ runId }] = (await lite.store.db
      .selectFrom('sync_runs')
      .select((eb) => eb.fn.max('id').as('runId'))
      .execute()) as { runId: number }[];
    const stats = (await lite.store.db
      .selectFrom('sync_run_streams')
      .select(['stream', 'updated', 'deleted'])
      .where('run_id', '=', runId)
      .execute()) as { stream: string; updated: number; deleted: number }[];
    const assets = stats.find((s) => s.stream === 'assets')!;
    const rows = (kind: string) => Number(changed.find((c) => c.table_name === 'assets' && c.change === kind)?.rows ?? 0);
    expect([rows('updated'), rows('deleted')]).toEqual([assets.updated, assets.deleted]);

    const yesterday = await answer(lite.store, '07-yesterdays-values');
    expect(yesterday.length).toBeGreaterThan(0);
    expect(yesterday.some((r) => r.price_before !== r.price_now)).toBe(true);
  });

  it('unlocks ahead: the schedules the sandbox ends after now, soonest first (the sandbox clock is now)', async () => {
    const before = Date.now();
    const rows = await answer(lite.store, '02-unlocks-ahead');
    const after = Date.now();
    const end = (u: { projectedEndDate: string }) => Date.parse(u.projectedEndDate);
    const expected = sb.monitoring
      .tokenUnlockAssets()
      .filter((u) => end(u) > before)
      .sort((x, y) => end(x) - end(y) || (x.id < y.id ? -1 : 1))
      .slice(0, 20);
    // A schedule ending while the query ran may be in either list: the rest are the same, in order.
    const settled = (name: unknown) => !expected.some((u) => u.name === name && end(u) <= after);
    expect(rows.length).toBe(20);
    expect(rows.map((r) => [r.name, r.symbol]).filter(([n]) => settled(n))).toEqual(
      expected.map((u) => [u.name, u.symbol]).filter(([n]) => settled(n)),
    );
  });

  it("most-discussed assets: the crosswalk's sure links name the sandbox's own /v1 asset", async () => {
    const rows = await answer(lite.store, '05-most-discussed-assets');
    const truth = new Map(sb.assetLinks().map((l) => [l.partnerId, l.v1AssetId]));
    const idByName = new Map(sb.monitoring.assets().map((a) => [a.name, a.id]));
    const v1 = new Map((sb.records('assets') as { id: number; sector: string | null }[]).map((a) => [a.id, a]));
    const linked = rows.filter((r) => r.match_method !== null);
    expect(linked.length).toBeGreaterThan(rows.length / 2);
    for (const r of linked) expect(Number(r.confidence)).toBeGreaterThanOrEqual(0.6);
    const right = linked.filter((r) => {
      const id = truth.get(idByName.get(String(r.name))!);
      return id != null && v1.get(id)!.sector === r.sector;
    });
    expect(right.length / linked.length).toBeGreaterThanOrEqual(0.8);
  });

  it("the last 30 days of the market series: every day to the sandbox's today, as the sandbox serves them", async () => {
    const rows = await answer(lite.store, '06-daily-market-series');
    const served = new Map((sb.records('market-stats') as { date: string; total_market_cap_usd: number }[]).map((d) => [d.date, d]));
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    expect(rows[0].date).toBe(sb.now().toISOString().slice(0, 10));
    expect(rows.length).toBeGreaterThanOrEqual(31);
    expect(String(rows.at(-1)!.date) >= day(-31)).toBe(true);
    for (const r of rows) expect(r.total_market_cap_usd).toBe(served.get(String(r.date))?.total_market_cap_usd);
  });

  it("docs/analyst.md's examples section is what docs/examples/ renders (npm run docs:schema)", () => {
    const readme = readFileSync(new URL('../../docs/analyst.md', import.meta.url), 'utf8');
    expect(readSection(readme, 'examples')).toBe(examplesMarkdown(EXAMPLES));
  });
});
