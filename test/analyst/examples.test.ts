// @end-to-end
// Every worked example of docs/analyst.md (docs/examples/) runs on both stores against the same synced
// sandbox mirror kept as the daemon keeps one (the jobs recorded, a first sync, the sandbox's clock
// advanced, an incremental sync, then a quiet monitoring-only run: the newest run changed nothing) and
// gives the same, non-empty answer on both; docs/analyst.md shows exactly these examples. The sandbox is
// started as a user starts it, without --start (its clock is now), so the questions about "now" and "the
// last 30 days" have answers; each answer is checked against the sandbox or the base tables. The README's
// first query too: the ten largest assets on both stores, unranked assets (equities without a market cap
// rank) last, though SQLite sorts NULL first unless told otherwise.
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/index.js';
import { readSection } from '../../src/dictionary/generated-sections.js';
import { examplesMarkdown, workedExamples } from '../../src/dictionary/worked-examples.js';
import type { Store } from '../../src/store/index.js';
import type { TestStore } from '../helpers/stores.js';
import { type AnalystMirror, analystMirror, neutral, quietMonitoringRun } from './analyst-fixture.js';

const EXAMPLES = workedExamples();
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const FIRST_QUERY = /```sql\n(select [^\n]* from v_assets [^\n]*);\n```/.exec(README)?.[1];

// When each store's runs happened: the same mirror written twice differs only there.
const RUN_TIMES = new Set(['started_at', 'last_success_at', 'age_seconds']);

async function answer(store: Store, name: string, { times = true, db = store.db } = {}): Promise<Record<string, unknown>[]> {
  const example = EXAMPLES.find((e) => e.name === name)!;
  const { rows } = await sql.raw<Record<string, unknown>>(example.sql[store.dialect]).execute(db);
  return rows.map((r) =>
    Object.fromEntries(
      Object.entries(r)
        .filter(([k]) => times || !RUN_TIMES.has(k))
        .map(([k, v]) => [k, neutral(v)]),
    ),
  );
}

describe('worked examples', () => {
  let mirror: AnalystMirror;
  let sb: Sandbox;
  let lite: TestStore;
  let pg: TestStore;
  let quiet: number[];

  beforeAll(async () => {
    mirror = await analystMirror();
    ({ sb, lite, pg } = mirror);
    // The shared mirror ends with a quiet monitoring run too; one more now keeps the five-minute job fresh
    // however long ago the mirror was built.
    quiet = [await quietMonitoringRun(lite.store, sb), await quietMonitoringRun(pg.store, sb)];
  }, 300_000);
  afterAll(() => mirror?.cleanup());

  it('the newest run is a quiet monitoring run, as on a mirror the daemon keeps', async () => {
    for (const [i, t] of [lite, pg].entries()) {
      const {
        rows: [newest],
      } = await sql<{ run_id: number; job: string; changed_rows: number }>`
        select run_id, job, changed_rows from v_runs order by run_id desc limit 1`.execute(t.store.db);
      expect(newest).toEqual({ run_id: quiet[i], job: 'monitoring-events', changed_rows: 0 });
      const { rows } = await sql`select count(*) as n from v_changes where ended_by_run_id = ${quiet[i]}`.execute(t.store.db);
      expect(Number((rows[0] as { n: unknown }).n)).toBe(0);
    }
  });

  it('there are the nine questions of docs/analyst.md', () => {
    expect(EXAMPLES.map((e) => e.name)).toEqual([
      '01-top-assets',
      '02-unlocks-ahead',
      '03-high-importance-events-per-category-week',
      '04-alerts-per-view-per-day',
      '05-most-discussed-assets',
      '06-daily-market-series',
      '07-yesterdays-values',
      '08-what-the-last-change-changed',
      '09-is-the-mirror-fresh',
    ]);
  });

  it.each(EXAMPLES.map((e) => e.name))('%s: the same answer on SQLite and PostgreSQL', async (name) => {
    const [a, b] = [await answer(lite.store, name, { times: false }), await answer(pg.store, name, { times: false })];
    expect(a.length).toBeGreaterThan(0);
    expect(b).toEqual(a);
  });

  it("yesterday's values: an asset the service gives no rank comes in the same place on both stores (last)", async () => {
    // The service leaves a few assets unranked; one among the changed ones, made so on both copies (the rank
    // alone: no row_hash change, so no version is written), must not move (SQLite sorts nulls first).
    const [last] = (await answer(lite.store, '07-yesterdays-values')).slice(-1);
    const unrank = (t: TestStore, rank: number | null) =>
      sql`update assets set market_cap_rank = ${rank} where id = (select id from v_assets where title = ${last!.title})`.execute(
        t.store.db,
      );
    const { rank } = (
      await sql<{ rank: number | null }>`select market_cap_rank as rank from v_assets where title = ${last!.title}`.execute(lite.store.db)
    ).rows[0]!;
    try {
      for (const t of [lite, pg]) await unrank(t, null);
      const [a, b] = [await answer(lite.store, '07-yesterdays-values'), await answer(pg.store, '07-yesterdays-values')];
      expect(b).toEqual(a);
      // Last of all the changed assets: the last of the 20 shown, or past the limit when more changed.
      expect(a.findIndex((r) => r.title === last!.title)).toBe(a.length < 20 ? a.length - 1 : -1);
    } finally {
      for (const t of [lite, pg]) await unrank(t, rank);
    }
  });

  it("yesterday's values: the same when the last run's writes bear its start time (a clock that stands still)", async () => {
    // Under an injected clock (the sandbox's, a year's bench) a run's writes are stamped with its own
    // started_at, so the versions it ended have valid_to = started_at: a query that kept the versions valid
    // at the run's start found none. Stamped so inside a transaction that is rolled back.
    const rollback = new Error('rollback');
    for (const t of [lite, pg]) {
      const before = await answer(t.store, '07-yesterdays-values');
      let stamped: Record<string, unknown>[] = [];
      await t.store.db
        .transaction()
        .execute(async (tx) => {
          const { numAffectedRows } = await sql`update row_history
            set valid_to = (select s.started_at from sync_runs s where s.id = row_history.ended_by_run_id)
            where table_name = 'assets'
              and ended_by_run_id = (select max(h.ended_by_run_id) from row_history h where h.table_name = 'assets')`.execute(tx);
          expect(Number(numAffectedRows)).toBeGreaterThan(0);
          stamped = await answer(t.store, '07-yesterdays-values', { db: tx });
          throw rollback;
        })
        .catch((err: unknown) => {
          if (err !== rollback) throw err;
        });
      expect(stamped.length).toBeGreaterThan(0);
      expect(stamped).toEqual(before);
    }
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

    const changed = await answer(lite.store, '08-what-the-last-change-changed');
    // The last run that wrote assets: the second sync of everything, not the newest (quiet) run.
    const [{ runId }] = (await lite.store.db
      .selectFrom('sync_run_streams')
      .select((eb) => eb.fn.max('run_id').as('runId'))
      .where('stream', '=', 'assets')
      .where((eb) => eb.or([eb('updated', '>', 0), eb('deleted', '>', 0)]))
      .execute()) as { runId: number }[];
    expect(runId).not.toBe(quiet[0]);
    expect(changed.filter((c) => c.table_name === 'assets').map((c) => c.run_id)).toContain(runId);
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

  it('is the mirror fresh: every stream a job keeps, with its table; the ones synced are not stale', async () => {
    const rows = await answer(lite.store, '09-is-the-mirror-fresh');
    const kept = new Map(rows.map((r) => [r.stream, r]));
    expect(kept.get('monitoring-events')).toMatchObject({ table_name: 'monitoring_events', jobs: 'monitoring-events', stale: 0 });
    expect(kept.get('assets')).toMatchObject({ table_name: 'assets', jobs: 'monthly-assets', stale: 0 });
    expect(Number(kept.get('assets')!.live_rows)).toBe(sb.records('assets').length);
    for (const r of rows) expect(r.stale === 1).toBe(r.last_success_at === null);
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

  it.each([
    'sqlite',
    'postgres',
  ])("the README's first query on %s gives the ten best-ranked assets, unranked ones last", async (dialect) => {
    const { store } = [lite, pg].find((t) => t.store.dialect === dialect)!;
    expect(FIRST_QUERY).toContain('order by market_cap_rank');
    const unranked = await sql<{ n: number }>`select count(*) as n from v_assets where market_cap_rank is null`.execute(store.db);
    expect(Number(unranked.rows[0]!.n)).toBeGreaterThan(0); // else the order of NULLs is never tested
    const { rows } = await sql.raw<{ title: string; code: string }>(FIRST_QUERY!).execute(store.db);
    const best = await sql<{ title: string; code: string }>`
      select title, code from v_assets where market_cap_rank <= (
        select max(market_cap_rank) from (select market_cap_rank from v_assets where market_cap_rank is not null order by market_cap_rank limit 10) t)`.execute(
      store.db,
    );
    expect(rows.length).toBe(10);
    const key = (r: { title: string; code: string }) => `${r.code} ${r.title}`;
    expect(best.rows.map(key)).toEqual(expect.arrayContaining(rows.map(key)));
  });

  it("docs/analyst.md's examples section is what docs/examples/ renders (npm run docs:schema)", () => {
    const readme = readFileSync(new URL('../../docs/analyst.md', import.meta.url), 'utf8');
    expect(readSection(readme, 'examples')).toBe(examplesMarkdown(EXAMPLES));
  });
});
