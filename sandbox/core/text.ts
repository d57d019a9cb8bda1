// Plausible names, codes, slugs and sentences from a seeded Rng. Slugs end in the record's index in
// base 36 so a slug resolves to its record in O(1) without an index of every slug.
import type { Rng } from './prng.js';

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ru',
  'ta',
  'vo',
  'xi',
  'zen',
  'bel',
  'cor',
  'dra',
  'fin',
  'gal',
  'hex',
  'ion',
  'jet',
  'kyr',
  'lum',
  'mor',
  'nyx',
  'or',
  'pax',
  'qua',
  'ral',
  'sol',
  'tor',
  'ul',
  'vex',
  'wyn',
  'yor',
  'zu',
];
const WORDS = [
  'protocol',
  'network',
  'liquidity',
  'staking',
  'validator',
  'governance',
  'bridge',
  'oracle',
  'ledger',
  'settlement',
  'yield',
  'collateral',
  'treasury',
  'consensus',
  'rollup',
  'throughput',
  'custody',
  'market',
  'issuer',
  'revenue',
  'exchange',
  'token',
  'supply',
  'index',
  'volume',
  'security',
  'audit',
  'upgrade',
  'users',
  'fees',
  'chain',
  'asset',
  'layer',
  'data',
  'risk',
  'capital',
  'growth',
  'shares',
  'earnings',
];

export function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** A made-up proper name of 2-4 syllables, e.g. "Zenkaru". */
export function properName(rng: Rng): string {
  const n = 2 + rng.int(3);
  let s = '';
  for (let i = 0; i < n; i++) s += rng.pick(SYLLABLES);
  return capitalize(s);
}

export function sentence(rng: Rng, minWords = 6, maxWords = 14): string {
  const n = minWords + rng.int(maxWords - minWords + 1);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(rng.pick(WORDS));
  return `${capitalize(words.join(' '))}.`;
}

export function paragraph(rng: Rng, sentences: number): string {
  const out: string[] = [];
  for (let i = 0; i < sentences; i++) out.push(sentence(rng));
  return out.join(' ');
}

/** Lower-case, dash-separated, ASCII letters and digits only. */
export function kebab(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** `kebab(title)-<index in base 36>`: unique by construction, max 100 characters. */
export function indexedSlug(title: string, index: number): string {
  const suffix = `-${index.toString(36)}`;
  return kebab(title).slice(0, 100 - suffix.length) + suffix;
}

/** The index a slug made by `indexedSlug` ends with, or -1. The caller still checks the whole slug. */
export function slugIndex(slug: string): number {
  const m = /-([0-9a-z]{1,8})$/.exec(slug);
  return m ? parseInt(m[1], 36) : -1;
}

export function tickerCode(name: string, rng: Rng): string {
  const letters = name.toUpperCase().replace(/[^A-Z]/g, '');
  return letters.slice(0, 3 + rng.int(3)) || 'X';
}
