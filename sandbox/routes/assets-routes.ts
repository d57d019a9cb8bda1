// /v1/assets and everything under one asset.
import { Expand } from '../core/expand.js';
import { ASSET_SORT_KEYS, assetDetailJson, assetJson, assetSubResource, type AssetDetailKind } from '../data/asset-json.js';
import { assetClassOf, assetIdentity } from '../data/assets.js';
import { ratingByAsset, ratingJson } from '../data/transparency.js';
import { notFound } from '../http/http-error.js';
import { EXPAND, limit, ORDER_DIR, PAGE, parseQuery, SPARKLINE } from '../http/params.js';
import { liveOf, lowerSet, ordered, pageOf } from './list.js';
import { resolveIdOrSlug } from './resolve.js';
import { RawBody, type Route, type RouteContext } from './route.js';
import type { World } from '../data/world.js';

const LIST = {
  page: PAGE,
  limit: limit(100, 100),
  code: { type: 'string', max: 20 },
  slug: { type: 'string', max: 100 },
  sparkline: SPARKLINE,
  category: { type: 'strings', maxLength: 255 },
  ids_or_codes: { type: 'strings', maxLength: 255 },
  asset_class: { type: 'enum', values: ['token', 'equity', 'tokenizedStock'], default: 'token' },
  order_by: { type: 'enum', values: Object.keys(ASSET_SORT_KEYS) },
  order_dir: ORDER_DIR,
  expand: EXPAND,
} as const;

function list({ w, query }: RouteContext) {
  const q = parseQuery(query, LIST);
  const code = q.code?.toLowerCase();
  const categories = lowerSet(q.category);
  const idsOrCodes = lowerSet(q.ids_or_codes);
  const filter = (i: number) => {
    if (assetClassOf(w, i) !== q.asset_class) return false;
    if (code === undefined && q.slug === undefined && !categories && !idsOrCodes) return true;
    const a = assetIdentity(w, i);
    if (code !== undefined && a.code.toLowerCase() !== code) return false;
    if (q.slug !== undefined && a.slug !== q.slug) return false;
    if (categories && (a.category === null || !categories.has(a.category.toLowerCase()))) return false;
    if (idsOrCodes && !idsOrCodes.has(String(a.id)) && !idsOrCodes.has(a.code.toLowerCase())) return false;
    return true;
  };
  const sortKey = q.order_by ? ASSET_SORT_KEYS[q.order_by] : undefined;
  const key = ['assets', q.asset_class, code, q.slug, q.category, q.ids_or_codes, q.order_by, q.order_dir].join('|');
  const idx = ordered(w, {
    key,
    candidates: liveOf(w.assets),
    filter,
    sortKey: sortKey && ((i) => sortKey(w, i)),
    dir: q.order_dir as 'asc' | 'desc',
  });
  const expand = new Expand(q.expand ?? []);
  return pageOf(idx, q.page!, q.limit!, (i) => assetJson(w, i, expand));
}

function resolveAsset(w: World, token: string): number {
  return resolveIdOrSlug(
    'asset',
    w.assets,
    w.ids.assets,
    token,
    (i) => assetIdentity(w, i).slug,
    (s) => w.listings.indexOfSlug(s),
  );
}

function detail({ w, params, query }: RouteContext) {
  const q = parseQuery(query, { sparkline: SPARKLINE, expand: EXPAND });
  return assetDetailJson(w, resolveAsset(w, params.idOrSlug), new Expand(q.expand ?? []));
}

function ratingOf(w: World, token: string): number {
  const i = resolveAsset(w, token);
  const k = ratingByAsset(w).get(i);
  if (k === undefined) throw notFound(`asset '${token}' has no transparency rating`);
  return k;
}

/** The download's body is "not shown": we serve a small PDF named by the rating. */
function download({ w, params }: RouteContext) {
  const rating = ratingJson(w, ratingOf(w, params.idOrSlug));
  if (rating.download_url === null) throw notFound(`asset '${params.idOrSlug}' has no transparency report`);
  const text = `%PDF-1.4\n% sandbox transparency report ${rating.id} for ${rating.asset_code}\n%%EOF\n`;
  return new RawBody('application/pdf', Buffer.from(text));
}

function sub(kind: AssetDetailKind): Route {
  return {
    path: `/v1/assets/:idOrSlug/${kind}`,
    auth: 'api-key',
    handle: ({ w, params }) => assetSubResource(w, resolveAsset(w, params.idOrSlug), kind),
  };
}

export const assetRoutes: Route[] = [
  { path: '/v1/assets', auth: 'api-key', handle: list },
  { path: '/v1/assets/:idOrSlug', auth: 'api-key', handle: detail },
  { path: '/v1/assets/:idOrSlug/transparency', auth: 'api-key', handle: ({ w, params }) => ratingJson(w, ratingOf(w, params.idOrSlug)) },
  { path: '/v1/assets/:idOrSlug/transparency/download', auth: 'api-key', handle: download },
  sub('markets'),
  sub('ohlcv'),
  sub('price'),
  sub('market-cap'),
  sub('supply'),
];
