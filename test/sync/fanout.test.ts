// @end-to-end
// Fan-outs against the sandbox on both stores: the selected parents' per-item endpoints mirrored as
// served, a re-run writes nothing, chart rows are paged past a full page and replaced whole per chart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { resolveStreams } from '../../src/catalog/index.js';
import { pageNumber } from '../../src/catalog/paginator.js';
import { runSync, type RunResult } from '../../src/sync/engine.js';
import { fastClient, settings, silent, syncOnce, totals } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

async function served(sandbox: Sandbox, path: string): Promise<any> {
  const res = await fetch(`${sandbox.url}${path}`, { headers: { 'x-api-key': sandbox.apiKey } });
  expect(res.status, path).toBe(200);
  return res.json();
}

// Chart rows at 250 a page instead of the service's 100,000 (the catalog's, which the analyst fixture's sync
// asks the sandbox for, and the sandbox refuses a limit past the service's): paging past a full page is the
// same at any page size, and the sandbox's charts at scale 0.1 (seed 6: 843, 633, 281, 7 and 5 rows) take
// up to 4 pages, where a chart past 100,000 rows was most of this file's cost.
const PAGE = 250;
const [catalogChartRows] = resolveStreams(['chart-rows']);
const chartRows = { ...catalogChartRows!, paginator: pageNumber(PAGE) } as typeof catalogChartRows;

/** How many rows the chart's data pages serve, all pages read. */
async function servedRows(sandbox: Sandbox, chartId: unknown): Promise<number> {
  const { data } = await served(sandbox, `/v1/charts/${chartId}/data?page=1&limit=100000`);
  return data.length;
}

for (const dialect of dialects) {
  describe(`fan-outs on ${dialect}`, () => {
    let sandbox: Sandbox;
    let test: TestStore;

    beforeAll(async () => {
      sandbox = await startSandbox({ start: PINNED_START, scale: 0.1, seed: 6 });
      test = await openTestStore(dialect);
      expect((await syncOnce(test.store, sandbox, ['assets', 'projects', 'metrics', 'charts'])).outcome).toBe('success');
    });
    afterAll(async () => {
      await test?.cleanup();
      await sandbox?.close();
    });

    it('mirrors the per-asset endpoints of the top assets by rank, and nothing on a re-run', async () => {
      const fanouts = ['asset-markets', 'asset-ohlcv', 'asset-price', 'asset-supply'];
      const selection = { assets: { top: 5 } };
      const first = await syncOnce(test.store, sandbox, fanouts, { settings: { selection } });
      expect(first.outcome).toBe('success');
      expect(totals(first).inserted).toBe(20);
      const top = await test.store.db
        .selectFrom('assets')
        .select(['id', 'slug'])
        .where('market_cap_rank', 'is not', null)
        .orderBy('market_cap_rank')
        .orderBy('id')
        .limit(5)
        .execute();
      for (const asset of top) {
        const markets = await test.store.db
          .selectFrom('asset_markets')
          .selectAll()
          .where('asset_id', '=', asset.id)
          .executeTakeFirstOrThrow();
        const want = await served(sandbox, `/v1/assets/${asset.slug}/markets`);
        expect(JSON.parse(String(markets.raw))).toEqual(want);
        expect(markets.volume_24h).toBe(want.volume_24h);
        const price = await test.store.db
          .selectFrom('asset_price')
          .select('raw')
          .where('asset_id', '=', asset.id)
          .executeTakeFirstOrThrow();
        expect(JSON.parse(String(price.raw))).toEqual(await served(sandbox, `/v1/assets/${asset.slug}/price`));
      }
      const again = totals(await syncOnce(test.store, sandbox, fanouts, { settings: { selection } }));
      expect(again.inserted + again.updated).toBe(0);
      expect(again.unchanged).toBe(20);
    });

    it('a parent that fails starts no other parent, and the stream ends only once those in flight are over', async () => {
      const [first] = await test.store.db
        .selectFrom('assets')
        .select('slug')
        .where('market_cap_rank', 'is not', null)
        .orderBy('market_cap_rank')
        .orderBy('id')
        .limit(1)
        .execute();
      // The first parent's every attempt gets a proxy's page (it fails after its retries) while the others
      // are answered, 50 ms each: when it fails, three parents are in flight and dozens wait their turn.
      sandbox.setChaos({ latencyMs: 50, html: { times: 1_000, path: `/v1/assets/${first!.slug}/price` } });
      const client = fastClient(sandbox);
      const before = sandbox.requestCount();
      let atReturn = -1;
      let stream: RunResult['streams'][number] | undefined;
      try {
        const result = await runSync({
          client,
          store: test.store,
          logger: silent,
          settings: settings({ selection: { assets: { top: 100 } }, fanoutConcurrency: 4 }),
          streams: resolveStreams(['asset-price']),
        });
        stream = result.streams[0];
        atReturn = stream!.requests;
      } finally {
        await client.close();
        sandbox.setChaos(null);
      }
      expect(stream?.outcome).toBe('failed');
      expect(stream?.error).toContain(`/v1/assets/${first!.slug}/price`);
      // Nothing of the stream was sent, or counted, after it reported: parents waiting their turn never started.
      expect(stream?.requests).toBe(atReturn);
      expect(sandbox.requestCount() - before).toBe(atReturn);
      expect(atReturn).toBeLessThan(100 + 10);
    });

    it('mirrors project chains and metric series for a selection', async () => {
      const metric = await test.store.db
        .selectFrom('metrics')
        .select('identifier')
        .orderBy('identifier')
        .limit(1)
        .executeTakeFirstOrThrow();
      // Three projects the metric has a series for (a metric covers most projects, not all).
      const candidates = await test.store.db.selectFrom('projects').select(['id', 'slug']).orderBy('id').limit(10).execute();
      const covered = await served(sandbox, `/v1/metrics/${metric.identifier}?project=${candidates.map((p) => p.slug).join(',')}`);
      const projects = candidates.filter((p) => covered[String(p.slug)]?.length > 0).slice(0, 3);
      expect(projects.length).toBe(3);
      const slugs = projects.map((p) => String(p.slug));
      const result = await syncOnce(test.store, sandbox, ['project-chains', 'metric-series'], {
        settings: {
          selection: { projects: { ids: slugs }, metrics: { ids: [String(metric.identifier)] } },
          fanout: { metricProjects: slugs },
        },
      });
      expect(result.outcome).toBe('success');
      for (const p of projects) {
        const want = (await served(sandbox, `/v1/projects/${p.slug}/chains`)).data.map((c: any) => c.id).sort();
        const got = (await test.store.db.selectFrom('project_chains').select('chain_id').where('project_id', '=', p.id).execute())
          .map((r) => r.chain_id)
          .sort();
        expect(got).toEqual(want);
      }
      const series = await served(sandbox, `/v1/metrics/${metric.identifier}?project=${slugs.join(',')}`);
      const points = Object.values(series).reduce((n: number, list: any) => n + list.length, 0);
      const rows = await test.store.db
        .selectFrom('metric_series')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(rows.n)).toBe(points);
      // A first run inserts; nothing is counted as updated.
      const counted = result.streams.find((s) => s.stream === 'metric-series')!;
      expect([counted.inserted, counted.updated, counted.notice ?? null]).toEqual([points, 0, null]);
    });

    it('says which --metric-projects matched nothing, instead of a silent success', async () => {
      const metric = await test.store.db
        .selectFrom('metrics')
        .select('identifier')
        .orderBy('identifier')
        .limit(1)
        .executeTakeFirstOrThrow();
      const project = await test.store.db.selectFrom('projects').select('slug').orderBy('id').limit(1).executeTakeFirstOrThrow();
      const result = await syncOnce(test.store, sandbox, ['metric-series'], {
        settings: {
          selection: { metrics: { ids: [String(metric.identifier)] } },
          fanout: { metricProjects: [String(project.slug), 'no-such-project'] },
        },
      });
      const s = result.streams[0];
      expect(s.notice).toMatch(/no rows for "no-such-project" in any of 1 metrics/);
      expect(s.notice).not.toContain(String(project.slug));
      await expect(
        syncOnce(test.store, sandbox, ['metric-series'], { settings: { fanout: { metricProjects: [] } } }),
      ).resolves.toMatchObject({ outcome: 'failed', streams: [{ error: expect.stringMatching(/needs --metric-projects/) }] });
    });

    it('counts parents with no record upstream as a normal outcome, not an error', async () => {
      const selection = { assets: { top: 100 } };
      const result = await syncOnce(test.store, sandbox, ['asset-transparency'], { settings: { selection } });
      const s = result.streams[0];
      const parents = await test.store.db
        .selectFrom('assets')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
      expect(s.outcome).toBe('success');
      expect(s.errors).toBe(0);
      expect(s.absent).toBeGreaterThan(0);
      // Every parent accounted for: a record written or none upstream.
      expect(s.inserted + s.updated + s.unchanged + (s.absent ?? 0)).toBe(Math.min(100, Number(parents.n)));
    });

    it('pages chart rows past a full page and replaces a chart only when its rows changed', async () => {
      const charts = await test.store.db.selectFrom('charts').select('id').where('deleted_at', 'is', null).orderBy('id').execute();
      const ids = charts.map((c) => String(c.id));
      const syncCharts = async () => {
        const client = fastClient(sandbox);
        try {
          const selection = { charts: { ids } };
          return await runSync({ client, store: test.store, logger: silent, settings: settings({ selection }), streams: [chartRows!] });
        } finally {
          await client.close();
        }
      };
      const first = await syncCharts();
      expect(first.outcome).toBe('success');
      const counts = await test.store.db
        .selectFrom('chart_rows')
        .select(['chart_id'])
        .select((eb) => eb.fn.countAll().as('n'))
        .groupBy('chart_id')
        .execute();
      for (const c of counts) expect(Number(c.n), String(c.chart_id)).toBe(await servedRows(sandbox, c.chart_id));
      const biggest = counts.reduce((a, b) => (Number(b.n) > Number(a.n) ? b : a));
      expect(Number(biggest.n)).toBeGreaterThan(3 * PAGE);
      // The biggest chart's rows, in order, are exactly what its pages serve.
      const page2 = await served(sandbox, `/v1/charts/${biggest.chart_id}/data?page=2&limit=${PAGE}`);
      const row = await test.store.db
        .selectFrom('chart_rows')
        .select('data')
        .where('chart_id', '=', biggest.chart_id)
        .where('row_number', '=', PAGE)
        .executeTakeFirstOrThrow();
      expect(JSON.parse(String(row.data))).toEqual(page2.data[0]);

      // Unchanged charts are not replaced: whether a chart changed is its rows' hash over every page.
      const again = totals(await syncCharts());
      const rows = counts.reduce((n, c) => n + Number(c.n), 0);
      expect([again.inserted + again.updated, again.unchanged]).toEqual([0, rows]);

      await sandbox.advance({ seconds: 86_400, updateFraction: 0.3, addFraction: 0, removeFraction: 0 });
      const changed = await syncCharts();
      expect(totals(changed).updated).toBeGreaterThan(0);
      for (const c of counts) {
        const got = await test.store.db
          .selectFrom('chart_rows')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('chart_id', '=', c.chart_id)
          .executeTakeFirstOrThrow();
        expect(Number(got.n)).toBe(await servedRows(sandbox, c.chart_id));
      }
    });
  });
}
