// What the `/v1` world needs to know of the partner services' assets (token unlocks and monitoring):
// which of its assets are theirs, under which names, and where the well-known ones rank. Built by
// listings.ts; kept apart so the World can hold it without importing the generators.

/** One asset of the partner services, as they name it. */
export interface PartnerAsset {
  name: string;
  symbol: string;
  slug: string;
  /** The partner's own sector vocabulary (monitoring's subsector, token unlocks' `sector`). */
  subsector: string;
}

/** How a listed asset's `/v1` identity relates to the partner's. */
export type ListingKind = 'same' | 'own-slug' | 'renamed' | 'reticker' | 'decoy-symbol' | 'decoy-name';

/** Identity fields of a `/v1` asset that come from a partner asset (absent: generated as usual). */
export interface ListingOverride {
  kind: ListingKind;
  /** The partner asset (index in its universe) this `/v1` asset is (or, for a decoy, is mistaken for). */
  partner: number;
  title?: string;
  code?: string;
  /** A slug without the `-<index base 36>` tail the generated slugs have. */
  slug?: string;
  /** Index into the `/v1` sectors, the partner's subsector translated. */
  sectorIndex?: number;
}

export interface WellKnown {
  rank: number;
  priceUsd: number;
  volatility: number;
}

export interface AssetListings {
  /** Generated assets' base ranks start after this many (the largest well-known assets lead). */
  readonly generatedRankOffset: number;
  /** A well-known partner asset's base rank and price (a day's move is `volatility`), else null. */
  wellKnown(assetIndex: number): WellKnown | null;
  override(assetIndex: number): ListingOverride | undefined;
  /** The `/v1` asset index with this plain slug, or -1. */
  indexOfSlug(slug: string): number;
  /** Partner index → the `/v1` asset that truly is it; partners absent are not on `/v1`. */
  readonly truth: ReadonlyMap<number, number>;
}

export const NO_LISTINGS: AssetListings = {
  generatedRankOffset: 0,
  wellKnown: () => null,
  override: () => undefined,
  indexOfSlug: () => -1,
  truth: new Map(),
};
