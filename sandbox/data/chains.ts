// Chains (fields not shown by the spec: we serve identity, sectors, the native asset and a few stats).
import { Rng, sig } from '../core/prng.js';
import { indexedSlug, properName, sentence } from '../core/text.js';
import { assetIdentity, assetValues } from './assets.js';
import { taxonomyIndexFor, taxonomySlug } from './taxonomy.js';
import type { World } from './world.js';

export interface ChainIdentity {
  index: number;
  id: number;
  title: string;
  slug: string;
  sectorSlugs: string[];
  nativeAssetIndex: number | null;
}

export function chainIdentity(w: World, k: number): ChainIdentity {
  const rng = new Rng(w.seed, 'chain', k);
  const title = `${properName(rng)}${rng.pick([' Chain', ' Network', '', ' Mainnet'])}`;
  const sectors = new Set([taxonomySlug(w, 'sectors', taxonomyIndexFor(w, 'sectors', 'chain', k))]);
  if (rng.chance(0.3)) sectors.add(taxonomySlug(w, 'sectors', rng.int(w.sizes.sectors)));
  return {
    index: k,
    id: w.ids.chains.idOf(k),
    title,
    slug: indexedSlug(title, k),
    sectorSlugs: [...sectors],
    nativeAssetIndex: rng.chance(0.9) ? rng.int(w.projects.baseCount) : null,
  };
}

export function chainJson(w: World, k: number): Record<string, unknown> {
  const c = chainIdentity(w, k);
  const rng = new Rng(w.seed, 'chain-text', k);
  const vr = new Rng(w.seed, 'chain-v', k, w.chains.version(k));
  const noDescription = rng.chance(0.1);
  const native = c.nativeAssetIndex !== null && w.assets.isLive(c.nativeAssetIndex) ? assetIdentity(w, c.nativeAssetIndex) : null;
  return {
    id: c.id,
    slug: c.slug,
    title: c.title,
    // Null-ness is the chain's; the values are the version's, so every update changes the record.
    description: noDescription ? null : sentence(vr, 8, 20),
    image_url: rng.orNull(0.1, `https://img.sandbox.invalid/chains/${k}.png`),
    sector_slugs: c.sectorSlugs,
    native_asset: native ? { id: native.id, code: native.code, slug: native.slug } : null,
    block_time_seconds: rng.orNull(0.1, sig(rng.between(0.2, 15), 3)),
    tvl_usd: !noDescription && rng.chance(0.1) ? null : sig(Math.exp(vr.between(10, 25))),
    launched_at: w.chains.bornAt(k) ?? w.baseTimes(rng).created,
  };
}

export function chainMarketCap(w: World, k: number): number | null {
  const ai = chainIdentity(w, k).nativeAssetIndex;
  if (ai === null || !w.assets.isLive(ai)) return null;
  return assetValues(w, assetIdentity(w, ai)).marketCap.usd;
}
