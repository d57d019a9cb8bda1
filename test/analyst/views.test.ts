// @end-to-end
// The analyst views mean the same on both stores: the same sandbox mirrored into SQLite and PostgreSQL
// gives the same rows in every view (sync times aside), with one time form per store, live rows only,
// and typed values lifted from raw.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Store } from '../../src/store/index.js';
import { ANALYST_VIEWS } from '../../schema/views/index.js';
import type { TestStore } from '../helpers/stores.js';
import { type AnalystMirror, analystMirror, neutral } from './analyst-fixture.js';

// When each store wrote a row: differs between two mirrors of the same data.
const SYNC_TIMES = new Set([
  'first_seen_at',
  'synced_at',
  'valid_from',
  'valid_to', // a version ends when the store wrote the next one
  'recorded_at', // when each store recorded its jobs
  'learned_at',
  'webhook_at',
  'backfill_at',
  'reconstructed_at',
  'detail_fetched_at',
]);
// When each store's runs happened (v_streams, v_jobs, v_runs).
for (const c of ['started_at', 'finished_at', 'duration_seconds', 'last_success_at', 'last_started_at', 'age_seconds', 'counted_at'])
  SYNC_TIMES.add(c);
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Objects' keys in one order: jsonb keeps its own, SQLite's text the service's (v_changes' raw). */
const sortedKeys = (_k: string, v: unknown) =>
  v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v;

async function viewRows(store: Store, view: string): Promise<string[]> {
  const rows = (await store.db.selectFrom(view).selectAll().execute()) as Record<string, unknown>[];
  return rows
    .map((r) =>
      JSON.stringify(
        Object.fromEntries(
          Object.entries(r)
            .filter(([k]) => !SYNC_TIMES.has(k))
            .map(([k, v]) => [k, neutral(v)]),
        ),
        sortedKeys,
      ),
    )
    .sort();
}

describe('analyst views', () => {
  let mirror: AnalystMirror;
  let lite: TestStore;
  let pg: TestStore;

  beforeAll(async () => {
    mirror = await analystMirror();
    ({ lite, pg } = mirror);
  }, 240_000);
  afterAll(() => mirror?.cleanup());

  it.each(ANALYST_VIEWS.map((v) => v.name))('%s has the same rows on SQLite and PostgreSQL', async (view) => {
    const [a, b] = [await viewRows(lite.store, view), await viewRows(pg.store, view)];
    const only = (x: string[], y: string[]) => x.filter((r) => !new Set(y).has(r)).slice(0, 3);
    expect({ rows: b.length, onlyPostgres: only(b, a) }).toEqual({ rows: a.length, onlyPostgres: [] });
    expect(only(a, b)).toEqual([]);
  });

  // A live view reads the columns the sync stored (LiftedColumn.live, no raw parsed per row); its versions
  // view lifts the same fields from raw. The current versions must be the live rows, value for value.
  it.each(
    ANALYST_VIEWS.filter((v) => v.versionsOf && ANALYST_VIEWS.some((l) => `${l.name}_history` === v.name)).map((v) =>
      v.name.replace(/_history$/, ''),
    ),
  )('%s: the stored columns read give what the lifts of raw give', async (view) => {
    const live = ANALYST_VIEWS.find((v) => v.name === view)!;
    const columns = live.columns.filter((c) => !SYNC_TIMES.has(c.name)).map((c) => c.name);
    for (const t of [lite, pg]) {
      const read = async (from: string, where: string) =>
        (await sql.raw<Record<string, unknown>>(`select ${columns.join(', ')} from ${from}${where}`).execute(t.store.db)).rows
          .map((r) => JSON.stringify(columns.map((c) => neutral(r[c]))))
          .sort();
      const [rows, current] = [await read(view, ''), await read(`${view}_history`, ' where valid_to is null')];
      expect(rows.length, `${view} on ${t.store.dialect}`).toBeGreaterThan(0);
      const only = (x: string[], y: string[]) => x.filter((r) => !y.includes(r)).slice(0, 2);
      const label = `${view} on ${t.store.dialect}`;
      expect({ rows: current.length, live: only(rows, current), lifted: only(current, rows) }, label).toEqual({
        rows: rows.length,
        live: [],
        lifted: [],
      });
    }
  });

  it('labels views uniquely where names repeat, on both stores', async () => {
    for (const t of [lite, pg]) {
      // A second view under the name of the first (the real service has four called "Governance").
      const [first] = (await t.store.db.selectFrom('monitoring_views').selectAll().limit(1).execute()) as Record<string, unknown>[];
      const twin = { ...first!, id: 'ffffffff-0000-4000-8000-000000000001' };
      await t.store.db.insertInto('monitoring_views').values(twin).execute();
      await t.store.db
        .insertInto('alert_history')
        .values({
          view_id: twin.id,
          event_id: 'twin-event',
          development_id: '',
          source: 'backfill',
          first_seen_at: new Date().toISOString(),
        } as never)
        .execute();
      try {
        const views = (await t.store.db.selectFrom('v_monitoring_views').select(['id', 'name', 'view_label']).execute()) as {
          id: string;
          name: string;
          view_label: string;
        }[];
        expect(new Set(views.map((v) => v.name)).size).toBeLessThan(views.length);
        expect(new Set(views.map((v) => v.view_label)).size).toBe(views.length);
        for (const v of views) {
          const shared = views.filter((o) => o.name === v.name).length > 1;
          expect(v.view_label).toBe(shared ? `${v.name} (${v.id.slice(0, 8)})` : v.name);
        }
        const alerts = (await t.store.db.selectFrom('v_alerts').select(['view_id', 'view_label']).distinct().execute()) as {
          view_id: string;
          view_label: string;
        }[];
        expect(alerts.find((a) => a.view_id === twin.id)?.view_label).toBe(`${String(first!.name)} (ffffffff)`);
        expect(new Set(alerts.map((a) => a.view_label)).size).toBe(new Set(alerts.map((a) => a.view_id)).size);
      } finally {
        await t.store.db.deleteFrom('alert_history').where('view_id', '=', twin.id).execute();
        await t.store.db.deleteFrom('monitoring_views').where('id', '=', twin.id).execute();
      }
    }
  });

  it('every view has the columns its definition declares, and the main views have rows', async () => {
    for (const view of ANALYST_VIEWS) {
      for (const t of [lite, pg]) {
        expect(await viewColumns(t, view.name), `${view.name} on ${t.store.dialect}`).toEqual(view.columns.map((c) => c.name));
      }
    }
    for (const name of ['v_assets', 'v_market_stats_daily', 'v_token_unlocks', 'v_events', 'v_alerts', 'v_event_categories']) {
      expect((await lite.store.db.selectFrom(name).selectAll().limit(1).execute()).length, name).toBe(1);
    }
  });

  it('times are ISO 8601 UTC text on SQLite and timestamptz/date on PostgreSQL; measures are numbers', async () => {
    const market = (await lite.store.db
      .selectFrom('v_market_stats_daily')
      .selectAll()
      .orderBy('date')
      .limit(1)
      .executeTakeFirstOrThrow()) as Record<string, any>;
    const raw = JSON.parse(
      String((await lite.store.db.selectFrom('market_stats').select('raw').where('id', '=', market.id).executeTakeFirstOrThrow()).raw),
    );
    expect(market.date).toBe(raw.date);
    expect(market.updated_at).toBe(new Date(raw.updated_at * 1000).toISOString());
    expect(market.total_market_cap_usd).toBe(raw.total_market_cap_usd);
    const event = (await lite.store.db.selectFrom('v_events').selectAll().limit(1).executeTakeFirstOrThrow()) as Record<string, any>;
    expect(event.started_at).toMatch(ISO_UTC);
    expect(event.importance_rank).toBe(['not-important', 'low', 'medium', 'high'].indexOf(event.importance));

    const types = await pg.store.db
      .selectFrom('information_schema.columns' as any)
      .select(['table_name', 'column_name', 'data_type'])
      .where('table_schema', '=', pg.schema!)
      .where('table_name', 'in', ['v_market_stats_daily', 'v_events', 'v_alerts'])
      .execute();
    const typeOf = (t: string, c: string) => types.find((r: any) => r.table_name === t && r.column_name === c)?.data_type;
    expect(typeOf('v_market_stats_daily', 'date')).toBe('date');
    expect(typeOf('v_market_stats_daily', 'total_market_cap_usd')).toBe('double precision');
    expect(typeOf('v_events', 'started_at')).toBe('timestamp with time zone');
    expect(typeOf('v_events', 'importance_rank')).toBe('bigint'); // docs/analyst.md: every integer is bigint on PostgreSQL
    expect(typeOf('v_alerts', 'matched_at')).toBe('timestamp with time zone');
  });

  it('views show live rows only', async () => {
    const [{ id }] = (await lite.store.db.selectFrom('assets').select('id').limit(1).execute()) as { id: number }[];
    await lite.store.db.updateTable('assets').set({ deleted_at: new Date().toISOString() }).where('id', '=', id).execute();
    expect(await lite.store.db.selectFrom('v_assets').select('id').where('id', '=', id).execute()).toEqual([]);
    const live = await lite.store.db
      .selectFrom('assets')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    const view = await lite.store.db
      .selectFrom('v_assets')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(view.n)).toBe(Number(live.n));
  });
});

/** A view's columns in order, from the catalog (a view with no rows has them too). */
async function viewColumns(t: TestStore, view: string): Promise<string[]> {
  const query =
    t.store.dialect === 'postgres'
      ? sql<{ name: string }>`select column_name as name from information_schema.columns
          where table_schema = ${t.schema!} and table_name = ${view} order by ordinal_position`
      : sql<{ name: string }>`select name from pragma_table_info(${view}) order by cid`;
  return (await query.execute(t.store.db)).rows.map((r) => r.name);
}
