// The mutable part of one generated resource, kept compact: per index a version, the time of its
// last change and a removed flag. Record content is a pure function of (seed, resource, index,
// version), so this is all the state that clock advances need.
import type { Rng } from './prng.js';

export interface ChangePolicy {
  update: boolean;
  add: boolean;
  remove: boolean;
}

export interface Fractions {
  updateFraction: number;
  addFraction: number;
  removeFraction: number;
}

/** Indices touched by one advance. */
export interface IndexChanges {
  updated: number[];
  added: number[];
  removed: number[];
}

export class Collection {
  private count: number;
  private versions: Uint16Array;
  private changed: Uint32Array; // Unix seconds of the last update or birth; 0 = as generated
  private removedFlags: Uint8Array;
  private born = new Map<number, number>(); // index -> Unix seconds, only for records added later
  private liveCache: Int32Array | null = null;

  constructor(
    readonly name: string,
    readonly baseCount: number,
    readonly policy: ChangePolicy = { update: true, add: true, remove: true },
  ) {
    this.count = baseCount;
    const cap = Math.max(16, baseCount);
    this.versions = new Uint16Array(cap);
    this.changed = new Uint32Array(cap);
    this.removedFlags = new Uint8Array(cap);
  }

  /** Size of the index space: live and removed records. */
  size(): number {
    return this.count;
  }

  isLive(i: number): boolean {
    return Number.isInteger(i) && i >= 0 && i < this.count && this.removedFlags[i] === 0;
  }

  version(i: number): number {
    return this.versions[i];
  }

  /** Unix seconds of the last change (update or birth), or 0 for a record untouched since generation. */
  changedAt(i: number): number {
    return this.changed[i];
  }

  /** Unix seconds when an added record appeared, undefined for generated ones. */
  bornAt(i: number): number | undefined {
    return this.born.get(i);
  }

  /** Live indices in ascending order (the default order: ids grow with the index). */
  live(): Int32Array {
    if (this.liveCache) return this.liveCache;
    let n = 0;
    for (let i = 0; i < this.count; i++) if (this.removedFlags[i] === 0) n++;
    const out = new Int32Array(n);
    let k = 0;
    for (let i = 0; i < this.count; i++) if (this.removedFlags[i] === 0) out[k++] = i;
    this.liveCache = out;
    return out;
  }

  advance(now: number, fractions: Fractions, rng: Rng): IndexChanges {
    const live = this.live();
    const n = live.length;
    const nRemove = this.policy.remove ? Math.round(n * fractions.removeFraction) : 0;
    const nUpdate = this.policy.update ? Math.min(n - nRemove, Math.round(n * fractions.updateFraction)) : 0;
    const nAdd = this.policy.add ? Math.round(n * fractions.addFraction) : 0;
    // A partial Fisher-Yates shuffle draws removed and updated records without overlap.
    const pool = Int32Array.from(live);
    const take = nRemove + nUpdate;
    for (let k = 0; k < take; k++) {
      const j = k + rng.int(n - k);
      const t = pool[k];
      pool[k] = pool[j];
      pool[j] = t;
    }
    const removed = Array.from(pool.subarray(0, nRemove)).sort((a, b) => a - b);
    const updated = Array.from(pool.subarray(nRemove, take)).sort((a, b) => a - b);
    for (const i of removed) this.removedFlags[i] = 1;
    for (const i of updated) {
      this.versions[i] = Math.min(this.versions[i] + 1, 0xffff);
      this.changed[i] = now;
    }
    const added: number[] = [];
    this.grow(this.count + nAdd);
    for (let k = 0; k < nAdd; k++) {
      const i = this.count++;
      this.changed[i] = now;
      this.born.set(i, now);
      added.push(i);
    }
    this.liveCache = null;
    return { updated, added, removed };
  }

  private grow(cap: number): void {
    if (cap <= this.versions.length) return;
    const next = Math.max(cap, this.versions.length * 2);
    const v = new Uint16Array(next);
    v.set(this.versions);
    const c = new Uint32Array(next);
    c.set(this.changed);
    const r = new Uint8Array(next);
    r.set(this.removedFlags);
    this.versions = v;
    this.changed = c;
    this.removedFlags = r;
  }
}

/** Maps indices to ids that are not positions (a stride and an offset), so clients cannot confuse them. */
export class IdSpace {
  constructor(
    readonly base: number,
    readonly stride: number,
  ) {}

  idOf(i: number): number {
    return this.base + i * this.stride;
  }

  /** The index an id denotes, or -1 when it cannot be one of ours. */
  indexOf(id: number): number {
    const d = id - this.base;
    if (!Number.isSafeInteger(id) || d < 0 || d % this.stride !== 0) return -1;
    return d / this.stride;
  }
}
