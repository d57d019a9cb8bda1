// Which `/v1` assets are the partner services' assets (token unlocks and monitoring share one universe),
// and under which names: most under the same name, symbol and slug, some under `/v1`'s own slug, a few
// renamed or under another ticker; some partner assets are not on `/v1` at all, and for some of those
// an unrelated stock reuses the ticker or the name (as tickers are reused), so a crosswalk by name and
// symbol finds true links and can be caught by false ones. Pure function of the seed and the sizes.
import { Rng } from '../core/prng.js';
import { assetClassOf } from './assets.js';
import type { AssetListings, ListingKind, ListingOverride, PartnerAsset, WellKnown } from './listing-types.js';
import { taxonomyTitle } from './taxonomy.js';
import type { World } from './world.js';

export interface PartnerUniverse {
  size: number;
  /** The first `wellKnown` assets are the well-known ones, in WELL_KNOWN order. */
  wellKnown: number;
  asset(index: number): PartnerAsset;
}

/** Share of the partner assets (beyond the well-known ones, all listed) that `/v1` lists. */
const LISTED = 0.85;
/** How a listed asset is named on `/v1`, cumulative shares. */
const KINDS: readonly [ListingKind, number][] = [
  ['same', 0.7],
  ['own-slug', 0.85],
  ['renamed', 0.93],
  ['reticker', 1],
];
/** Unlisted partner assets whose ticker (or name) an unrelated `/v1` stock reuses. */
const DECOY_SYMBOL = 0.5;
const DECOY_NAME = 0.1;
/** Renamed listed assets whose ticker an unrelated stock also uses (the crosswalk sees two candidates). */
const RENAMED_TICKER_TWIN = 0.3;

/** Base market-cap rank and USD price of the well-known assets, in the partner's order. */
const WELL_KNOWN: readonly [rank: number, price: number][] = [
  [1, 64_000], // BTC
  [2, 3_100], // ETH
  [5, 150], // SOL
  [4, 580], // BNB
  [9, 0.45], // ADA
  [12, 30], // AVAX
  [15, 6.5], // DOT
  [22, 7], // ATOM
  [30, 0.8], // ARB
  [38, 1.7], // OP
  [20, 8], // UNI
  [35, 150], // AAVE
  [11, 14], // LINK
  [40, 1.8], // LDO
  [50, 2_500], // MKR
  [3, 1], // USDT
  [6, 1], // USDC
  [45, 6], // TIA
  [28, 4.5], // FIL
  [33, 6], // RENDER
];
const STABLECOINS = new Set([15, 16]);

/** The partner's subsectors in `/v1`'s sector vocabulary. */
const SECTOR_OF: Record<string, string> = {
  'Layer 1': 'Smart Contract Platforms',
  'Layer 2': 'Smart Contract Platforms',
  Interoperability: 'Interoperability',
  Lending: 'Lending',
  'Decentralized Exchanges': 'Exchanges',
  Derivatives: 'Derivatives',
  Stablecoins: 'Stablecoins',
  'Asset Management': 'Decentralized Finance',
  Oracles: 'Oracles',
  'Data Availability': 'Data',
  Storage: 'Storage',
  'Developer Tools': 'Infrastructure',
  Gaming: 'Gaming',
  Social: 'Social',
  NFTs: 'Collectibles',
  Compute: 'Artificial Intelligence',
  Agents: 'Artificial Intelligence',
};

export function planListings(w: World, partner: PartnerUniverse): AssetListings {
  const plan = new Plan(w);
  for (let m = 0; m < partner.size; m++) plan.add(m, partner.asset(m), m < partner.wellKnown);
  const wellKnown = Math.min(partner.wellKnown, WELL_KNOWN.length);
  const slugs = new Map<string, number>();
  for (const [j, o] of plan.overrides) if (o.slug) slugs.set(o.slug, j);
  return {
    generatedRankOffset: 3, // Bitcoin, Ethereum and Tether lead; the other well-known assets mix in
    wellKnown: (i): WellKnown | null => {
      const o = plan.overrides.get(i);
      if (!o || o.kind !== 'same' || o.partner >= wellKnown) return null;
      const [rank, priceUsd] = WELL_KNOWN[o.partner];
      return { rank, priceUsd, volatility: STABLECOINS.has(o.partner) ? 0.001 : 0.05 };
    },
    override: (i) => plan.overrides.get(i),
    indexOfSlug: (slug) => slugs.get(slug) ?? -1,
    truth: plan.truth,
  };
}

class Plan {
  readonly overrides = new Map<number, ListingOverride>();
  readonly truth = new Map<number, number>();
  private tokenCursor: number;
  private stockCursor: number;
  private readonly sectors: Map<string, number>;

  constructor(private readonly w: World) {
    this.tokenCursor = w.projects.baseCount;
    this.stockCursor = w.projects.baseCount;
    this.sectors = new Map(Array.from({ length: w.sizes.sectors }, (_, k) => [taxonomyTitle(w, 'sectors', k), k]));
  }

  add(m: number, p: PartnerAsset, wellKnown: boolean): void {
    const rng = new Rng(this.w.seed, 'listing', m);
    if (!wellKnown && !rng.chance(LISTED)) {
      const r = rng.next();
      if (r < DECOY_SYMBOL) this.decoy(m, { kind: 'decoy-symbol', partner: m, code: p.symbol });
      else if (r < DECOY_SYMBOL + DECOY_NAME) this.decoy(m, { kind: 'decoy-name', partner: m, title: p.name });
      return;
    }
    const j = m < this.w.projects.baseCount ? m : this.next('token');
    if (j < 0) return;
    const kind = wellKnown ? 'same' : pickKind(rng.next());
    const sectorIndex = this.sectors.get(SECTOR_OF[p.subsector] ?? '');
    this.overrides.set(j, { ...named(kind, p), partner: m, sectorIndex });
    this.truth.set(m, j);
    if (kind === 'renamed' && rng.chance(RENAMED_TICKER_TWIN)) this.decoy(m, { kind: 'decoy-symbol', partner: m, code: p.symbol });
  }

  private decoy(m: number, o: ListingOverride): void {
    const j = this.next('equity');
    if (j >= 0) this.overrides.set(j, { ...o, partner: m });
  }

  /** The next unused generated asset of this class beyond the project tokens, or -1. */
  private next(cls: 'token' | 'equity'): number {
    const n = this.w.assets.baseCount;
    let j = cls === 'token' ? this.tokenCursor : this.stockCursor;
    while (j < n && (assetClassOf(this.w, j) !== cls || this.overrides.has(j))) j++;
    if (cls === 'token') this.tokenCursor = j + 1;
    else this.stockCursor = j + 1;
    return j < n ? j : -1;
  }
}

function pickKind(r: number): ListingKind {
  return (KINDS.find(([, upTo]) => r < upTo) ?? KINDS[0])[0];
}

/** The `/v1` names of a listed partner asset; generated `/v1` slugs end in `-<index base 36>`. */
function named(kind: ListingKind, p: PartnerAsset): Omit<ListingOverride, 'partner'> {
  switch (kind) {
    case 'same':
      return { kind, title: p.name, code: p.symbol, slug: p.slug };
    case 'renamed':
      return { kind, title: renamed(p.name), code: p.symbol };
    case 'reticker':
      return { kind, title: p.name, code: p.symbol.length > 3 ? p.symbol.slice(0, 3) : `${p.symbol}X` };
    default:
      return { kind, title: p.name, code: p.symbol };
  }
}

/** "Rakomita Protocol" → "Rakomita"; "Rakomita" → "Rakomita Token". */
function renamed(name: string): string {
  const space = name.lastIndexOf(' ');
  return space > 0 ? name.slice(0, space) : `${name} Token`;
}
