// Sectors, groups and industries: small reference lists (fields not shown by the spec; we serve
// id, slug, title, description, created_at, updated_at). Projects and assets refer to them by title.
import { Rng } from '../core/prng.js';
import { indexedSlug, kebab, properName, sentence } from '../core/text.js';
import type { Collection } from '../core/collection.js';
import type { World } from './world.js';

export type TaxonomyKind = 'sectors' | 'groups' | 'industries';

const SECTORS = [
  'Smart Contract Platforms',
  'Decentralized Finance',
  'Stablecoins',
  'Exchanges',
  'Gaming',
  'Infrastructure',
  'Privacy',
  'Storage',
  'Oracles',
  'Payments',
  'Lending',
  'Derivatives',
  'Collectibles',
  'Social',
  'Artificial Intelligence',
  'Real World Assets',
  'Identity',
  'Interoperability',
  'Memes',
  'Data',
  'Technology',
  'Financials',
  'Health Care',
  'Energy',
];
const GROUPS = [
  'Layer 1',
  'Layer 2',
  'DeFi',
  'CeFi',
  'Consumer',
  'Infrastructure Services',
  'Tokenized Assets',
  'Equities',
  'Developer Tools',
  'Security',
  'Governance',
  'Other',
];
const MARKETS = ['Retail', 'Institutional', 'Cross-chain', 'On-chain', 'Enterprise', 'Consumer'];
const ACTIVITIES = ['Lending', 'Trading', 'Payments', 'Custody', 'Analytics', 'Gaming', 'Staking', 'Insurance', 'Identity', 'Storage'];
const INDUSTRIES = MARKETS.flatMap((m) => ACTIVITIES.map((a) => `${m} ${a}`));

const NAMES: Record<TaxonomyKind, readonly string[]> = { sectors: SECTORS, groups: GROUPS, industries: INDUSTRIES };

export function taxonomyCollection(w: World, kind: TaxonomyKind): Collection {
  return w[kind];
}

export function taxonomyTitle(w: World, kind: TaxonomyKind, i: number): string {
  const names = NAMES[kind];
  if (i < names.length) return names[i];
  return `${properName(new Rng(w.seed, kind, 'title', i))} ${kind === 'groups' ? 'Group' : 'Services'}`;
}

export function taxonomySlug(w: World, kind: TaxonomyKind, i: number): string {
  const title = taxonomyTitle(w, kind, i);
  return i < NAMES[kind].length ? kebab(title) : indexedSlug(title, i);
}

export interface TaxonomyRecord {
  id: number;
  slug: string;
  title: string;
  description: string | null;
  created_at: number;
  updated_at: number;
}

export function taxonomyRecord(w: World, kind: TaxonomyKind, i: number): TaxonomyRecord {
  const coll = w[kind];
  const rng = new Rng(w.seed, kind, i);
  const base = w.baseTimes(rng);
  const v = coll.version(i);
  const vr = new Rng(w.seed, kind, 'v', i, v);
  return {
    id: w.ids[kind].idOf(i),
    slug: taxonomySlug(w, kind, i),
    title: taxonomyTitle(w, kind, i),
    description: vr.orNull(0.1, sentence(vr)),
    created_at: coll.bornAt(i) ?? base.created,
    updated_at: coll.changedAt(i) || base.updated,
  };
}

/** A taxonomy index for the index of another record (a project's sector, ...). */
export function taxonomyIndexFor(w: World, kind: TaxonomyKind, owner: string, i: number): number {
  // A partner's asset keeps its sector, translated (a project token's index is its project's).
  const listed = kind === 'sectors' && (owner === 'asset' || owner === 'project') ? w.listings.override(i)?.sectorIndex : undefined;
  if (listed !== undefined) return listed;
  return new Rng(w.seed, owner, kind, i).int(w.sizes[kind]);
}
