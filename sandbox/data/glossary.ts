// Glossary entries (fields not shown by the spec: id, slug, title, definition, status, related slugs).
import { Rng } from '../core/prng.js';
import { indexedSlug, paragraph, properName } from '../core/text.js';
import type { World } from './world.js';

const TERMS = [
  'Proof of Stake',
  'Proof of Work',
  'Market Capitalization',
  'Fully Diluted Valuation',
  'Circulating Supply',
  'Total Value Locked',
  'Automated Market Maker',
  'Liquidity Pool',
  'Slippage',
  'Impermanent Loss',
  'Staking',
  'Validator',
  'Rollup',
  'Zero-Knowledge Proof',
  'Oracle',
  'Stablecoin',
  'Airdrop',
  'Token Unlock',
  'Vesting',
  'Governance Token',
  'Bridge',
  'Layer 2',
  'Gas Fee',
  'Mempool',
  'Hard Fork',
  'Soft Fork',
  'Tokenomics',
  'Open Interest',
  'Liquidation',
  'All-Time High',
];

export function glossaryTitle(w: World, i: number): string {
  if (i < TERMS.length) return TERMS[i];
  const rng = new Rng(w.seed, 'glossary-title', i);
  return `${properName(rng)} ${rng.pick(['Ratio', 'Mechanism', 'Index', 'Curve', 'Model', 'Rule'])}`;
}

export function glossarySlug(w: World, i: number): string {
  return indexedSlug(glossaryTitle(w, i), i);
}

/** Inactive entries (status false) are hidden by the default `status=true`. */
export function glossaryStatus(w: World, i: number): boolean {
  return !new Rng(w.seed, 'glossary-status', i).chance(0.1);
}

export function glossaryJson(w: World, i: number): Record<string, unknown> {
  const vr = new Rng(w.seed, 'glossary-v', i, w.glossary.version(i));
  const rng = new Rng(w.seed, 'glossary', i);
  const related: string[] = [];
  const n = rng.int(3);
  for (let k = 0; k < n; k++) related.push(glossarySlug(w, rng.int(w.glossary.baseCount)));
  return {
    id: w.ids.glossary.idOf(i),
    slug: glossarySlug(w, i),
    title: glossaryTitle(w, i),
    definition: paragraph(vr, 1 + vr.int(3)),
    status: glossaryStatus(w, i),
    related_slugs: related,
  };
}
