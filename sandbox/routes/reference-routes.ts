// /v1/sectors, /v1/groups, /v1/industries, /v1/glossary(/{idOrSlug}), /v1/transparency(/{id}).
import { glossaryJson, glossarySlug, glossaryStatus } from '../data/glossary.js';
import { taxonomyRecord, taxonomySlug, taxonomyTitle, type TaxonomyKind } from '../data/taxonomy.js';
import { ratingAssetIndex, ratingJson, ratingScores, ratingTotal } from '../data/transparency.js';
import { assetIdentity } from '../data/assets.js';
import { limit, ORDER_DIR, PAGE, parseQuery } from '../http/params.js';
import { liveOf, ordered, pageOf, type SortValue } from './list.js';
import { resolveId, resolveIdOrSlug } from './resolve.js';
import type { Route, RouteContext } from './route.js';

/** Sectors, groups and industries require both order_by and order_dir (the brief; spec lists defaults too). */
function taxonomyRoute(kind: TaxonomyKind): Route {
  const orderBy = kind === 'sectors' ? ['title', 'slug', 'created_at'] : ['title', 'slug'];
  const spec = {
    page: PAGE,
    limit: limit(1000, 100),
    order_by: { type: 'enum', values: orderBy, required: true },
    order_dir: { type: 'enum', values: ['asc', 'desc'], required: true },
  } as const;
  return {
    path: `/v1/${kind}`,
    auth: 'api-key',
    handle: ({ w, query }) => {
      const q = parseQuery(query, spec);
      const sortKey = (i: number): SortValue =>
        q.order_by === 'title'
          ? taxonomyTitle(w, kind, i).toLowerCase()
          : q.order_by === 'slug'
            ? taxonomySlug(w, kind, i)
            : taxonomyRecord(w, kind, i).created_at;
      const idx = ordered(w, {
        key: [kind, q.order_by, q.order_dir].join('|'),
        candidates: liveOf(w[kind]),
        sortKey,
        dir: q.order_dir as 'asc' | 'desc',
      });
      return pageOf(idx, q.page!, q.limit!, (i) => taxonomyRecord(w, kind, i));
    },
  };
}

const GLOSSARY = {
  page: PAGE,
  limit: limit(1000, 1000),
  status: { type: 'bool', nullable: true, default: true },
  id: { type: 'ints', min: 0, max: 4294967295 },
  slug: { type: 'strings', maxLength: 255 },
  order_by: { type: 'enum', values: ['slug'], default: 'slug' },
  order_dir: ORDER_DIR,
} as const;

function listGlossary({ w, query }: RouteContext) {
  const q = parseQuery(query, GLOSSARY);
  const ids = q.id && new Set(q.id);
  const slugs = q.slug && new Set(q.slug);
  const idx = ordered(w, {
    key: ['glossary', q.status, q.id, q.slug, q.order_dir].join('|'),
    candidates: liveOf(w.glossary),
    filter: (i) =>
      (q.status === null || glossaryStatus(w, i) === q.status) &&
      (!ids || ids.has(w.ids.glossary.idOf(i))) &&
      (!slugs || slugs.has(glossarySlug(w, i))),
    sortKey: (i) => glossarySlug(w, i),
    dir: q.order_dir as 'asc' | 'desc',
  });
  return pageOf(idx, q.page!, q.limit!, (i) => glossaryJson(w, i));
}

const RATING_ORDER = ['asset_title', 'project_team', 'token_allocation', 'market_structure', 'financial_disclosure', 'total'] as const;

const TRANSPARENCY = {
  page: PAGE,
  limit: limit(1000, 100),
  project_id: { type: 'ints', min: -2147483647, max: 2147483647 },
  order_by: { type: 'enum', values: RATING_ORDER },
  order_dir: ORDER_DIR,
} as const;

function listTransparency({ w, query }: RouteContext) {
  const q = parseQuery(query, TRANSPARENCY);
  const projects = q.project_id && new Set(q.project_id);
  const by = q.order_by as (typeof RATING_ORDER)[number] | undefined;
  const sortKey =
    by === undefined
      ? undefined
      : (k: number): SortValue => {
          if (by === 'asset_title') return assetIdentity(w, ratingAssetIndex(w, k)).title.toLowerCase();
          if (by === 'total') return ratingTotal(w, k);
          return ratingScores(w, k)[by];
        };
  const idx = ordered(w, {
    key: ['transparency', q.project_id, q.order_by, q.order_dir].join('|'),
    candidates: liveOf(w.transparency),
    filter: projects && ((k) => projects.has(w.ids.projects.idOf(ratingAssetIndex(w, k)))),
    sortKey,
    dir: q.order_dir as 'asc' | 'desc',
  });
  return pageOf(idx, q.page!, q.limit!, (k) => ratingJson(w, k));
}

export const referenceRoutes: Route[] = [
  taxonomyRoute('sectors'),
  taxonomyRoute('groups'),
  taxonomyRoute('industries'),
  { path: '/v1/glossary', auth: 'api-key', handle: listGlossary },
  {
    path: '/v1/glossary/:idOrSlug',
    auth: 'api-key',
    handle: ({ w, params }) =>
      glossaryJson(
        w,
        resolveIdOrSlug('glossary entry', w.glossary, w.ids.glossary, params.idOrSlug, (i) => glossarySlug(w, i)),
      ),
  },
  { path: '/v1/transparency', auth: 'api-key', handle: listTransparency },
  {
    path: '/v1/transparency/:id',
    auth: 'api-key',
    handle: ({ w, params }) => ratingJson(w, resolveId('transparency rating', w.transparency, w.ids.transparency, params.id)),
  },
];
