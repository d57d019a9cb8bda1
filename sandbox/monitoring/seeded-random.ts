// Deterministic randomness keyed by coordinates (seed, kind, index, ...): any generated record can be
// rebuilt from its coordinates alone, so the sandbox keeps only compact columns in memory.
import { Rng as CoordinateRng } from '../core/prng.js';

/** Record kinds: part of every coordinate and of every generated UUID. */
export const Kind = {
  asset: 1,
  event: 2,
  development: 3,
  view: 4,
  delivery: 5,
  tokenUnlock: 6,
  advance: 7,
} as const;

export function hash32(...parts: number[]): number {
  let h = 0x811c9dc5 ^ parts.length;
  for (const part of parts) {
    h = Math.imul(h ^ (part >>> 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

/** The sandbox's mulberry32 generator, seeded from a numeric coordinate hash. */
export class Rng extends CoordinateRng {
  constructor(...parts: number[]) {
    super();
    this.reseed(hash32(...parts));
  }
}

const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0').slice(-width);

/**
 * A v4-shaped UUID whose last group carries the kind and index, so an id resolves back to its
 * record without a lookup table (the resolver rebuilds the UUID and compares, so forgeries fail).
 */
export function seededUuid(seed: number, kind: number, index: number): string {
  const a = hash32(seed, kind, index, 1);
  const b = hash32(seed, kind, index, 2);
  const c = hash32(seed, kind, index, 3);
  const tail = hex(kind, 2) + hex(index, 10);
  return `${hex(a, 8)}-${hex(b >>> 16, 4)}-4${hex(b & 0xfff, 3)}-${(8 | (c & 3)).toString(16)}${hex(c >>> 8, 3)}-${tail}`;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isUuid(value: string): boolean {
  return UUID_RE.test(value.toLowerCase());
}

/** The index a UUID of `kind` was generated for, or -1 when it is not one of ours. */
export function uuidIndex(seed: number, kind: number, value: string): number {
  const id = value.toLowerCase();
  if (!UUID_RE.test(id) || parseInt(id.slice(24, 26), 16) !== kind) return -1;
  const index = parseInt(id.slice(26), 16);
  return seededUuid(seed, kind, index) === id ? index : -1;
}

/** `k` distinct items of `items` (partial Fisher-Yates on a copy), in draw order. */
export function sample(rng: Rng, items: readonly number[], k: number): number[] {
  const pool = items.slice();
  const n = Math.min(k, pool.length);
  for (let i = 0; i < n; i++) {
    const j = i + rng.int(pool.length - i);
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, n);
}

/** round(fraction * n), for fractions in [0, 1]; anything else is a caller bug. */
export function countOf(fraction: number, n: number): number {
  if (!(fraction >= 0 && fraction <= 1)) throw new RangeError(`fraction must be in [0, 1], got ${fraction}`);
  return Math.round(fraction * n);
}
