// Every worked example of docs/analyst.md (docs/examples/) runs on both stores against the same synced
// sandbox mirror (a first sync, the sandbox's clock advanced, an incremental sync) and gives the
// same answer on both; docs/analyst.md shows exactly these examples.
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
// Answers that depend on the real clock (the sandbox's data is dated 2024-2025): may be empty.
const CLOCK_DEPENDENT = new Set(['02-unlocks-ahead']);

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
    if (!CLOCK_DEPENDENT.has(name)) expect(a.length).toBeGreaterThan(0);
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

  it("docs/analyst.md's examples section is what docs/examples/ renders (npm run docs:schema)", () => {
    const readme = readFileSync(new URL('../../docs/analyst.md', import.meta.url), 'utf8');
    expect(readSection(readme, 'examples')).toBe(examplesMarkdown(EXAMPLES));
  });
});
