// Market capitalisation and its rank. Each asset has a base size (a power law over a pseudo-rank) and a
// new draw around it with every version; market_cap.rank is the asset's place among every live ranked
// asset by that value, across asset classes, so an asset whose market cap moves changes rank (and
// pushes its neighbours one place), as on the real service. The ranking is rebuilt once per epoch.
import { Rng } from '../core/prng.js';
import type { World } from './world.js';

/** Spread of one version's market cap around its base (log scale): about a day's move. */
const DRAW = 0.05;
/** Share of assets the service ranks not at all (market_cap.rank null). */
const UNRANKED = 0.02;

/** Whether the asset ever has a rank (stable for its life). */
function isRanked(w: World, i: number): boolean {
  return !new Rng(w.seed, 'asset-unranked', i).chance(UNRANKED);
}

/** USD market cap of the asset's current version (before the API's rounding). */
export function marketCapUsd(w: World, i: number): number {
  const draw = new Rng(w.seed, 'asset-mc', i, w.assets.version(i)).normal();
  return (2e12 / pseudoRank(w, i) ** 1.25) * Math.exp(DRAW * draw);
}

/** The asset's current market_cap.rank (1 = largest), or null when unranked or removed. */
export function marketCapRank(w: World, i: number): number | null {
  const rank = ranking(w)[i] ?? 0;
  return rank === 0 ? null : rank;
}

/** Rank per index (0 = none), over every live ranked asset; ties by index. */
function ranking(w: World): Int32Array {
  return w.memo('asset-ranking', () => {
    const live = w.assets.live();
    const ranked: number[] = [];
    const cap = new Float64Array(w.assets.size());
    for (const i of live) {
      if (!isRanked(w, i)) continue;
      cap[i] = marketCapUsd(w, i);
      ranked.push(i);
    }
    ranked.sort((a, b) => cap[b] - cap[a] || a - b);
    const out = new Int32Array(w.assets.size());
    ranked.forEach((i, k) => {
      out[i] = k + 1;
    });
    return out;
  });
}

/**
 * Where the asset's base size puts it: the listed well-known assets first (Bitcoin, Ethereum, ...), then
 * the generated assets in a fixed shuffle; an asset added later comes in among the smaller ones.
 */
function pseudoRank(w: World, i: number): number {
  const wellKnown = w.listings.wellKnown(i);
  if (wellKnown !== null) return wellKnown.rank;
  const n = w.assets.baseCount;
  const shift = w.listings.generatedRankOffset;
  if (i >= n) return shift + new Rng(w.seed, 'asset-pseudo-rank', i).between(0.3 * n, 1.5 * n);
  return shift + shuffled(w, i);
}

/** A bijection of the generated indices onto 1..N (an affine map with a coprime multiplier). */
function shuffled(w: World, i: number): number {
  const n = w.assets.baseCount;
  const a = w.memo('asset-rank-multiplier', () => {
    let m = 7919 % n || 1;
    while (gcd(m, n) !== 1) m++;
    return m;
  });
  return ((a * i + (w.seed % n)) % n) + 1;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
