// Events and their developments as columns. Text (titles, summaries, documents) is not stored: it
// is rebuilt from (seed, index, version) when a record is served. An event's aggregate columns
// (counts, dates, importance, flags, categories) are always recomputed from its developments.
import type { AssetUniverse } from './asset-universe.js';
import { ColumnTable } from './column-table.js';
import { Kind, Rng } from './seeded-random.js';
import { SUBCATEGORIES, subcategoryBit } from './taxonomy.js';

export const DAY = 86_400;
export const NO_SUBCATEGORY = 255;
export const Flag = { verified: 1, actionable: 2, governance: 4 } as const;

const EVENT_COLUMNS = {
  removed: Uint8Array,
  version: Uint16Array,
  theme: Uint8Array,
  firstDev: Int32Array,
  devCount: Uint16Array,
  docCount: Uint16Array,
  importance: Uint8Array,
  flags: Uint8Array,
  catMask: Uint16Array,
  subLo: Uint32Array,
  subHi: Uint32Array,
  startedAt: Uint32Array,
  endedAt: Uint32Array,
  createdAt: Uint32Array,
  updatedAt: Uint32Array,
  asset0: Int32Array,
  asset1: Int32Array,
  asset2: Int32Array,
};
const DEV_COLUMNS = {
  event: Uint32Array,
  next: Int32Array,
  version: Uint16Array,
  importance: Uint8Array,
  flags: Uint8Array,
  sub0: Uint8Array,
  sub1: Uint8Array,
  docs: Uint8Array,
  startedAt: Uint32Array,
  endedAt: Uint32Array,
  createdAt: Uint32Array,
  updatedAt: Uint32Array,
};

// Share of developments per importance level: not-important, low, medium, high.
const IMPORTANCE_WEIGHTS = [0.3, 0.35, 0.25, 0.1];

export class EventWorld {
  readonly ev: ColumnTable<keyof typeof EVENT_COLUMNS>;
  readonly dev: ColumnTable<keyof typeof DEV_COLUMNS>;
  private sorted: Uint32Array | null = null;
  private sortedByUpdate: Uint32Array | null = null;

  /** `anchor`: Unix seconds the generated history ends at (the sandbox clock at start). */
  constructor(
    readonly seed: number,
    readonly assets: AssetUniverse,
    count: number,
    readonly anchor: number,
  ) {
    this.ev = new ColumnTable(EVENT_COLUMNS, count);
    this.dev = new ColumnTable(DEV_COLUMNS, count * 6);
    for (let i = 0; i < count; i++) this.createEvent(anchor - 365 * DAY, anchor - 3600, anchor);
  }

  get eventCount(): number {
    return this.ev.length;
  }

  isLive(e: number): boolean {
    return e >= 0 && e < this.ev.length && this.ev.cols.removed[e] === 0;
  }

  /** Creates an event starting in [from, to] with 1-10 developments; returns its index. */
  createEvent(from: number, to: number, now: number): number {
    const e = this.ev.addRow();
    const c = this.ev.cols;
    const rng = new Rng(this.seed, Kind.event, e);
    c.firstDev[e] = -1;
    c.theme[e] = rng.int(SUBCATEGORIES.length);
    const picked = this.pickAssets(rng);
    c.asset0[e] = picked[0];
    c.asset1[e] = picked[1] ?? -1;
    c.asset2[e] = picked[2] ?? -1;
    const start = from + rng.int(Math.max(1, to - from));
    const devs = 1 + rng.int(10);
    // Later developments follow within a few days, squeezed to fit before `now`.
    const span = Math.max(1, Math.min(devs * 2 * DAY, now - start));
    const offsets = Array.from({ length: devs - 1 }, () => 1 + rng.int(span)).sort((a, b) => a - b);
    for (const offset of [0, ...offsets]) this.addDevelopment(e, start + offset, now);
    return e;
  }

  /** Adds a development to event `e` starting at `startedAt`, recomputes the event; returns its index. */
  addDevelopment(e: number, startedAt: number, now: number): number {
    const d = this.dev.addRow();
    const c = this.dev.cols;
    const rng = new Rng(this.seed, Kind.development, d);
    c.event[d] = e;
    c.next[d] = this.ev.cols.firstDev[e];
    this.ev.cols.firstDev[e] = d;
    c.sub0[d] = rng.chance(0.7) ? this.ev.cols.theme[e] : rng.int(SUBCATEGORIES.length);
    const second = rng.int(SUBCATEGORIES.length);
    c.sub1[d] = rng.chance(0.2) && second !== c.sub0[d] ? second : NO_SUBCATEGORY;
    c.docs[d] = 1 + rng.int(3);
    c.startedAt[d] = startedAt;
    c.endedAt[d] = startedAt + rng.int(10 * DAY); // later than now: still ongoing
    c.createdAt[d] = Math.max(startedAt, Math.min(now, startedAt + rng.int(7200)));
    const edited = rng.chance(0.25) ? rng.int(Math.max(1, Math.min(3 * DAY, now - c.createdAt[d]))) : 0;
    c.updatedAt[d] = c.createdAt[d] + Math.max(0, edited);
    this.applyDevelopmentVersion(d, 0);
    this.recompute(e);
    return d;
  }

  /** A new version of a development: new importance and flags (and text), `updatedAt` = at. */
  updateDevelopment(d: number, at: number): void {
    this.applyDevelopmentVersion(d, this.dev.cols.version[d] + 1);
    this.dev.cols.updatedAt[d] = Math.max(at, this.dev.cols.createdAt[d]);
    this.recompute(this.dev.cols.event[d]);
  }

  /** A new version of the event's own text; `updatedAt` = at. */
  updateEvent(e: number, at: number): void {
    this.ev.cols.version[e]++;
    this.ev.cols.updatedAt[e] = Math.max(this.ev.cols.updatedAt[e], at);
    this.sortedByUpdate = null;
  }

  removeEvent(e: number): void {
    this.ev.cols.removed[e] = 1;
    this.sorted = null;
  }

  /** Development indices of event `e`, newest first. */
  developmentsOf(e: number): number[] {
    const out: number[] = [];
    for (let d = this.ev.cols.firstDev[e]; d >= 0; d = this.dev.cols.next[d]) out.push(d);
    const started = this.dev.cols.startedAt;
    return out.sort((a, b) => started[b] - started[a] || b - a);
  }

  assetsOf(e: number): number[] {
    const c = this.ev.cols;
    const out = [c.asset0[e]];
    if (c.asset1[e] >= 0) out.push(c.asset1[e]);
    if (c.asset2[e] >= 0) out.push(c.asset2[e]);
    return out;
  }

  /** All event indices (removed ones included), newest `startedAt` first. */
  byStartDescending(): Uint32Array {
    this.sorted ??= this.order(this.ev.cols.startedAt);
    return this.sorted;
  }

  /** All event indices (removed ones included), newest `updatedAt` first. */
  byUpdateDescending(): Uint32Array {
    this.sortedByUpdate ??= this.order(this.ev.cols.updatedAt);
    return this.sortedByUpdate;
  }

  private order(key: ArrayLike<number>): Uint32Array {
    const order = new Uint32Array(this.ev.length);
    for (let i = 0; i < order.length; i++) order[i] = i;
    return order.sort((a, b) => key[b] - key[a] || b - a);
  }

  private recompute(e: number): void {
    const ec = this.ev.cols;
    const dc = this.dev.cols;
    let count = 0,
      docs = 0,
      importance = 0,
      flags = 0,
      catMask = 0,
      subLo = 0,
      subHi = 0;
    let started = 0xffffffff,
      ended = 0,
      created = 0xffffffff,
      updated = ec.updatedAt[e];
    for (let d = ec.firstDev[e]; d >= 0; d = dc.next[d]) {
      count++;
      docs += dc.docs[d];
      importance = Math.max(importance, dc.importance[d]);
      flags |= dc.flags[d];
      for (const sub of [dc.sub0[d], dc.sub1[d]]) {
        if (sub === NO_SUBCATEGORY) continue;
        const bit = subcategoryBit(sub);
        subLo |= bit.lo;
        subHi |= bit.hi;
        catMask |= 1 << SUBCATEGORIES[sub].category;
      }
      started = Math.min(started, dc.startedAt[d]);
      ended = Math.max(ended, dc.endedAt[d]);
      created = Math.min(created, dc.createdAt[d]);
      updated = Math.max(updated, dc.updatedAt[d]);
    }
    if (ec.startedAt[e] !== started) this.sorted = null;
    if (ec.updatedAt[e] !== updated) this.sortedByUpdate = null;
    ec.devCount[e] = count;
    ec.docCount[e] = docs;
    ec.importance[e] = importance;
    ec.flags[e] = flags;
    ec.catMask[e] = catMask;
    ec.subLo[e] = subLo >>> 0;
    ec.subHi[e] = subHi >>> 0;
    ec.startedAt[e] = started;
    ec.endedAt[e] = ended;
    ec.createdAt[e] = created;
    ec.updatedAt[e] = updated;
  }

  private applyDevelopmentVersion(d: number, version: number): void {
    const rng = new Rng(this.seed, Kind.development, d, 1000 + version);
    const c = this.dev.cols;
    c.version[d] = version;
    let r = rng.next();
    let level = 0;
    while (level < IMPORTANCE_WEIGHTS.length - 1 && r >= IMPORTANCE_WEIGHTS[level]) r -= IMPORTANCE_WEIGHTS[level++];
    c.importance[d] = level;
    c.flags[d] = (rng.chance(0.7) ? Flag.verified : 0) | (rng.chance(0.2) ? Flag.actionable : 0) | (rng.chance(0.1) ? Flag.governance : 0);
  }

  /** 1-3 distinct assets; popular (low-index) assets are picked more often. */
  private pickAssets(rng: Rng): number[] {
    const n = this.assets.size;
    const want = 1 + (rng.chance(0.3) ? 1 : 0) + (rng.chance(0.1) ? 1 : 0);
    const out: number[] = [];
    while (out.length < Math.min(want, n)) {
      const r = rng.next();
      const i = Math.floor(n * r * r);
      if (!out.includes(i)) out.push(i);
    }
    return out;
  }
}
