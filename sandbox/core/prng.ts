// Seeded randomness keyed by coordinates (seed, resource, index, version): any record can be produced
// on its own, so the sandbox never has to generate (or hold) a whole collection to serve one page.

/** FNV-1a over strings and numbers, finished with murmur3's avalanche so near keys look unrelated. */
export function hash32(...parts: readonly (string | number)[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    if (typeof part === 'string') {
      for (let i = 0; i < part.length; i++) h = Math.imul(h ^ part.charCodeAt(i), 0x01000193);
      h = Math.imul(h ^ 0xff, 0x01000193); // separator: ('ab','c') differs from ('a','bc')
    } else {
      h = Math.imul(h ^ (part >>> 0), 0x01000193);
      h = Math.imul(h ^ (Math.floor(part / 0x100000000) >>> 0), 0x01000193);
    }
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** mulberry32: tiny, fast and good enough for test data. */
export class Rng {
  private state: number;

  constructor(...parts: readonly (string | number)[]) {
    this.state = hash32(...parts);
  }

  /** Restarts the sequence from a state computed elsewhere (the monitoring service hashes its own coordinates). */
  protected reseed(state: number): void {
    this.state = state >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  between(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** Standard normal (Box-Muller). */
  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  /** `value`, or null with probability `p`: every nullable field carries some nulls. */
  orNull<T>(p: number, value: T): T | null {
    return this.next() < p ? null : value;
  }
}

/** Rounds to 8 significant digits so JSON stays short and floats look like the real thing. */
export function sig(x: number, digits = 8): number {
  return Number(x.toPrecision(digits));
}
