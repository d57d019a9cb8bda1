// /v1/projects, /v1/projects/{idOrSlug}(/chains), /v1/chains, /v1/chains/{idOrSlug}.
import { Expand } from '../core/expand.js';
import { assetIdentity } from '../data/assets.js';
import { chainIdentity, chainJson, chainMarketCap } from '../data/chains.js';
import { projectIdentity } from '../data/project-identity.js';
import {
  projectChainIndices,
  projectGroupSlug,
  projectIndustrySlug,
  projectJson,
  projectMarketCap,
  projectSectorSlug,
} from '../data/project-json.js';
import { EXPAND, limit, ORDER_DIR, PAGE, parseQuery, SPARKLINE } from '../http/params.js';
import { liveOf, lowerSet, ordered, pageOf } from './list.js';
import { resolveIdOrSlug } from './resolve.js';
import type { Route, RouteContext } from './route.js';
import type { World } from '../data/world.js';

const SLUGS = { type: 'strings', maxLength: 255, maxItems: 100 } as const;
const INTS = { type: 'ints', min: -2147483647, max: 2147483647, maxItems: 100 } as const;
const ORDER = { type: 'enum', values: ['title', 'asset.marketCap.usd'], default: 'title' } as const;

const PROJECTS = {
  page: PAGE,
  limit: limit(10000, 100),
  sparkline: SPARKLINE,
  search: { type: 'string', max: 100 },
  sector_slugs: SLUGS,
  industry_slugs: SLUGS,
  group_slugs: SLUGS,
  slugs: SLUGS,
  asset_codes: SLUGS,
  id: INTS,
  parent_project_id: INTS,
  order_by: ORDER,
  order_dir: ORDER_DIR,
  expand: EXPAND,
} as const;

function listProjects({ w, query }: RouteContext) {
  const q = parseQuery(query, PROJECTS);
  const search = q.search?.toLowerCase();
  const sectors = lowerSet(q.sector_slugs);
  const industries = lowerSet(q.industry_slugs);
  const groups = lowerSet(q.group_slugs);
  const slugs = q.slugs && new Set(q.slugs);
  const codes = lowerSet(q.asset_codes);
  const ids = q.id && new Set(q.id);
  const parents = q.parent_project_id && new Set(q.parent_project_id);
  const filter = (j: number) => {
    const p = projectIdentity(w, j);
    if (search !== undefined && !p.title.toLowerCase().includes(search)) return false;
    if (sectors && !sectors.has(projectSectorSlug(w, p))) return false;
    if (industries && !industries.has(projectIndustrySlug(w, p))) return false;
    if (groups && !groups.has(projectGroupSlug(w, p))) return false;
    if (slugs && !slugs.has(p.slug)) return false;
    if (codes && (p.assetIndex === null || !w.assets.isLive(p.assetIndex) || !codes.has(assetIdentity(w, p.assetIndex).code.toLowerCase())))
      return false;
    if (ids && !ids.has(p.id)) return false;
    if (parents && (p.parentIndex === null || !parents.has(w.ids.projects.idOf(p.parentIndex)))) return false;
    return true;
  };
  const key = [
    'projects',
    JSON.stringify([q.search, q.sector_slugs, q.industry_slugs, q.group_slugs, q.slugs, q.asset_codes, q.id, q.parent_project_id]),
    q.order_by,
    q.order_dir,
  ].join('|');
  const idx = ordered(w, {
    key,
    candidates: liveOf(w.projects),
    filter,
    sortKey: q.order_by === 'title' ? (j) => projectIdentity(w, j).title.toLowerCase() : (j) => projectMarketCap(w, j),
    dir: q.order_dir as 'asc' | 'desc',
  });
  const expand = new Expand(q.expand ?? []);
  return pageOf(idx, q.page!, q.limit!, (j) => projectJson(w, j, expand));
}

function resolveProject(w: World, token: string): number {
  return resolveIdOrSlug('project', w.projects, w.ids.projects, token, (j) => projectIdentity(w, j).slug);
}

function resolveChain(w: World, token: string): number {
  return resolveIdOrSlug('chain', w.chains, w.ids.chains, token, (k) => chainIdentity(w, k).slug);
}

const CHAINS = {
  page: PAGE,
  limit: limit(10000, 100),
  sparkline: SPARKLINE,
  search: { type: 'string', max: 100 },
  sector_slugs: SLUGS,
  id: INTS,
  order_by: ORDER,
  order_dir: ORDER_DIR,
} as const;

function listChains({ w, query }: RouteContext) {
  const q = parseQuery(query, CHAINS);
  const search = q.search?.toLowerCase();
  const sectors = lowerSet(q.sector_slugs);
  const ids = q.id && new Set(q.id);
  const idx = ordered(w, {
    key: ['chains', JSON.stringify([q.search, q.sector_slugs, q.id]), q.order_by, q.order_dir].join('|'),
    candidates: liveOf(w.chains),
    filter: (k) => {
      const c = chainIdentity(w, k);
      if (search !== undefined && !c.title.toLowerCase().includes(search)) return false;
      if (sectors && !c.sectorSlugs.some((s) => sectors.has(s))) return false;
      return !ids || ids.has(c.id);
    },
    sortKey: q.order_by === 'title' ? (k) => chainIdentity(w, k).title.toLowerCase() : (k) => chainMarketCap(w, k),
    dir: q.order_dir as 'asc' | 'desc',
  });
  return pageOf(idx, q.page!, q.limit!, (k) => chainJson(w, k));
}

/** The chains of one project: a one-page chain page (no paging parameters are declared). */
function projectChains({ w, params, query }: RouteContext) {
  parseQuery(query, { sparkline: SPARKLINE });
  const j = resolveProject(w, params.idOrSlug);
  const live = projectChainIndices(w, j).filter((k) => w.chains.isLive(k));
  return pageOf(live, 1, Math.max(1, live.length), (k) => chainJson(w, k));
}

export const projectRoutes: Route[] = [
  { path: '/v1/projects', auth: 'api-key', handle: listProjects },
  {
    path: '/v1/projects/:idOrSlug',
    auth: 'api-key',
    handle: ({ w, params, query }) => {
      const q = parseQuery(query, { sparkline: SPARKLINE, expand: EXPAND });
      return projectJson(w, resolveProject(w, params.idOrSlug), new Expand(q.expand ?? []));
    },
  },
  { path: '/v1/projects/:idOrSlug/chains', auth: 'api-key', handle: projectChains },
  { path: '/v1/chains', auth: 'api-key', handle: listChains },
  {
    path: '/v1/chains/:idOrSlug',
    auth: 'api-key',
    handle: ({ w, params, query }) => {
      parseQuery(query, { sparkline: SPARKLINE });
      return chainJson(w, resolveChain(w, params.idOrSlug));
    },
  },
];
