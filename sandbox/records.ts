// records(resource): every record a /v1 list serves now, fully expanded, in the list's default order,
// read through the same route handlers the HTTP server uses.
import { Router, v1Routes } from './routes/router.js';
import type { World } from './data/world.js';

const ASSET_EXPAND = 'market_cap,price,equity_market_data,project';
const PROJECT_EXPAND = [
  'asset.market_cap',
  'asset.price',
  'asset.equity_market_data',
  'asset.project',
  'asset.ohlcv_last_24h',
  'parent_project',
  'child_projects.asset.market_cap',
].join(',');
const TAXONOMY = 'order_by=title&order_dir=asc&limit=1000';

const LISTS: Record<string, { path: string; queries: string[]; limit: number }> = {
  assets: {
    path: '/v1/assets',
    queries: ['token', 'equity', 'tokenizedStock'].map((c) => `asset_class=${c}&expand=${ASSET_EXPAND}`),
    limit: 100,
  },
  projects: { path: '/v1/projects', queries: [`expand=${PROJECT_EXPAND}`], limit: 10000 },
  chains: { path: '/v1/chains', queries: [''], limit: 10000 },
  sectors: { path: '/v1/sectors', queries: [TAXONOMY], limit: 1000 },
  groups: { path: '/v1/groups', queries: [TAXONOMY], limit: 1000 },
  industries: { path: '/v1/industries', queries: [TAXONOMY], limit: 1000 },
  glossary: { path: '/v1/glossary', queries: ['status=null'], limit: 1000 },
  transparency: { path: '/v1/transparency', queries: [''], limit: 1000 },
  'market-stats': { path: '/v1/market-stats', queries: [''], limit: 100 },
  metrics: { path: '/v1/metrics', queries: [''], limit: 1000 },
  'sec-filings': { path: '/v1/sec/filings', queries: [''], limit: 100 },
  charts: { path: '/v1/charts', queries: [''], limit: 100 },
};

export const RESOURCE_NAMES = Object.keys(LISTS);

const router = new Router(v1Routes);

export function listRecords(w: World, resource: string): unknown[] {
  const list = LISTS[resource];
  if (!list) throw new RangeError(`unknown resource "${resource}": use one of ${RESOURCE_NAMES.join(', ')}`);
  const match = router.match(list.path)!;
  const out: unknown[] = [];
  for (const base of list.queries) {
    for (let page = 1; ; page++) {
      const query = new URLSearchParams(base);
      query.set('page', String(page));
      if (!query.has('limit')) query.set('limit', String(list.limit));
      const { data } = match.route.handle({ w, params: {}, query }) as { data: unknown[] };
      out.push(...data);
      if (data.length < Number(query.get('limit'))) break;
    }
  }
  // Assets come from three passes (one per class); the default order of each is by id.
  if (resource === 'assets') out.sort((a, b) => (a as { id: number }).id - (b as { id: number }).id);
  return out;
}
