// The API shapes built from an asset: Asset (list item), AssetDetail, ProjectAsset, ChildProject's
// asset, and the per-asset detail records (markets, ohlcv, price, market-cap, supply).
import type { Expand } from '../core/expand.js';
import { assetIdentity, assetValues, type AssetIdentity, type AssetValues } from './assets.js';
import { marketCapRank } from './market-cap.js';
import { shortProject } from './project-identity.js';
import { kebab } from '../core/text.js';
import type { World } from './world.js';

type Json = Record<string, unknown>;

function base(a: AssetIdentity, v: AssetValues): Json {
  return {
    id: a.id,
    code: a.code,
    title: a.title,
    slug: a.slug,
    tag_line: a.tagLine,
    description: a.description,
    image_url: a.imageUrl,
    category: a.category,
    is_preview: a.isPreview,
    updated_at: v.updatedAt,
    type: a.type,
    asset_class: a.assetClass,
    sector: a.sector,
    sparkline: v.sparkline,
  };
}

function addExpansions(w: World, out: Json, a: AssetIdentity, v: AssetValues, expand: Expand): Json {
  if (expand.has('market_cap')) out.market_cap = { ...v.marketCap };
  if (expand.has('price')) out.price = { ...v.price };
  if (expand.has('equity_market_data')) out.equity_market_data = { ...v.equity };
  if (expand.has('project')) {
    out.project = a.projectIndex !== null && w.projects.isLive(a.projectIndex) ? shortProject(w, a.projectIndex) : null;
  }
  return out;
}

export function assetJson(w: World, i: number, expand: Expand): Json {
  const a = assetIdentity(w, i);
  const v = assetValues(w, a);
  return addExpansions(w, base(a, v), a, v, expand);
}

export function assetDetailJson(w: World, i: number, expand: Expand): Json {
  const a = assetIdentity(w, i);
  const v = assetValues(w, a);
  const out = addExpansions(w, base(a, v), a, v, expand);
  if (expand.has('breadcrumbs')) {
    out.breadcrumbs = [
      { slug: 'assets', title: 'Assets' },
      ...(a.sector ? [{ slug: kebab(a.sector), title: a.sector }] : []),
      { slug: a.slug, title: a.title },
    ];
  }
  return out;
}

/** The `asset` of a Project: all Asset fields plus OHLCV (E) and four required vendor fields. */
export function projectAssetJson(w: World, i: number, expand: Expand): Json {
  const a = assetIdentity(w, i);
  const v = assetValues(w, a);
  const out = addExpansions(w, base(a, v), a, v, expand);
  if (expand.has('ohlcv_last_24h')) out.ohlcv_last_24h = { ...v.ohlcv };
  out.fully_diluted_valuation_usd = v.fdv;
  out.vendor_a_api_id = `va-${a.id}`;
  out.vendor_b_api_id = `vb-${a.slug}`;
  out.charting_vendor_ref = `CHART:${a.code}`;
  return out;
}

export function childAssetJson(w: World, i: number, expand: Expand): Json {
  const a = assetIdentity(w, i);
  const out: Json = { id: a.id, code: a.code, title: a.title };
  if (expand.has('market_cap')) out.market_cap = { ...assetValues(w, a).marketCap };
  return out;
}

export type AssetDetailKind = 'markets' | 'ohlcv' | 'price' | 'market-cap' | 'supply';

/** Per-asset detail records. markets and ohlcv follow the spec; the other three are our choice. */
export function assetSubResource(w: World, i: number, kind: AssetDetailKind): Json {
  const a = assetIdentity(w, i);
  const v = assetValues(w, a);
  const ref = { asset_code: a.code, asset_slug: a.slug };
  const idRef = { asset_id: a.id, ...ref };
  switch (kind) {
    case 'markets':
      return { ...v.markets, ...ref };
    case 'ohlcv':
      return { ...v.ohlcv, ...ref };
    case 'price':
      return { ...idRef, ...v.price };
    case 'market-cap':
      return { ...idRef, ...v.marketCap };
    case 'supply':
      return { ...idRef, ...v.supply };
  }
}

/** Sort keys of `/v1/assets?order_by=`. */
export const ASSET_SORT_KEYS: Record<string, (w: World, i: number) => number | string | null> = {
  code: (w, i) => assetIdentity(w, i).code,
  slug: (w, i) => assetIdentity(w, i).slug,
  'market_cap.rank': (w, i) => marketCapRank(w, i),
  'market_cap.percent_change_usd_1h': (w, i) => values(w, i).marketCap.percent_change_usd_1h,
  'market_cap.percent_change_usd_24h': (w, i) => values(w, i).marketCap.percent_change_usd_24h,
  'market_cap.usd': (w, i) => values(w, i).marketCap.usd,
  'markets.volume_24h': (w, i) => values(w, i).markets.volume_24h,
  'price.usd': (w, i) => values(w, i).price.usd,
  'sector.title': (w, i) => assetIdentity(w, i).sector,
  'supply.total': (w, i) => values(w, i).supply.total,
};

function values(w: World, i: number): AssetValues {
  return assetValues(w, assetIdentity(w, i));
}
