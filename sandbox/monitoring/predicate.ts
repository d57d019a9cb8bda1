// One predicate type for the events filters and for monitoring views, matched against an event
// (its aggregate columns) or a single development (for webhook alerts). Absent field = no restriction.
import type { EventWorld } from './event-world.js';
import { Flag, NO_SUBCATEGORY } from './event-world.js';
import { eventSummary, eventTitle } from './event-text.js';
import { SUBCATEGORIES, subcategoryBit } from './taxonomy.js';

export interface Predicate {
  assets?: ReadonlySet<number>;
  events?: ReadonlySet<number>;
  /** Any-of masks; a zero mask (only unknown slugs given) matches nothing. */
  categoryMask?: number;
  subcategoryMask?: { lo: number; hi: number };
  minImportance?: number;
  verified?: boolean;
  actionable?: boolean;
  governance?: boolean;
  sectors?: ReadonlySet<number>;
  /** sector * 16 + subsector index. */
  subsectors?: ReadonlySet<number>;
  preTge?: boolean;
  networkMask?: number;
  start?: number;
  end?: number;
  /** Lower-cased; matched against the event title, summary and asset names and symbols. */
  search?: string;
}

/** Attributes of one event or development, read straight from the columns (no allocation). */
interface Item {
  importance: number;
  flags: number;
  catMask: number;
  subLo: number;
  subHi: number;
  startedAt: number;
}

function flagMatches(want: boolean | undefined, flags: number, flag: number): boolean {
  return want === undefined || ((flags & flag) !== 0) === want;
}

function matchesAttributes(p: Predicate, it: Item): boolean {
  if (p.categoryMask !== undefined && (it.catMask & p.categoryMask) === 0) return false;
  if (p.subcategoryMask && (it.subLo & p.subcategoryMask.lo) === 0 && (it.subHi & p.subcategoryMask.hi) === 0) return false;
  if (p.minImportance !== undefined && it.importance < p.minImportance) return false;
  if (!flagMatches(p.verified, it.flags, Flag.verified)) return false;
  if (!flagMatches(p.actionable, it.flags, Flag.actionable)) return false;
  if (!flagMatches(p.governance, it.flags, Flag.governance)) return false;
  if (p.start !== undefined && it.startedAt < p.start) return false;
  if (p.end !== undefined && it.startedAt > p.end) return false;
  return true;
}

const hasAssetPredicate = (p: Predicate): boolean =>
  p.assets !== undefined || p.sectors !== undefined || p.subsectors !== undefined || p.preTge !== undefined || p.networkMask !== undefined;

/** Each asset predicate holds for at least one of the event's assets (not necessarily the same one). */
function matchesAssets(w: EventWorld, p: Predicate, assets: number[]): boolean {
  const u = w.assets;
  const { sectors, subsectors, preTge, networkMask } = p;
  if (p.assets && !assets.some((a) => p.assets!.has(a))) return false;
  if (sectors && !assets.some((a) => sectors.has(u.sector[a]))) return false;
  if (subsectors && !assets.some((a) => subsectors.has(u.sector[a] * 16 + u.subsector[a]))) return false;
  if (preTge !== undefined && !assets.some((a) => (u.preTge[a] === 1) === preTge)) return false;
  if (networkMask !== undefined && !assets.some((a) => (u.networks[a] & networkMask) !== 0)) return false;
  return true;
}

const eventItem = { importance: 0, flags: 0, catMask: 0, subLo: 0, subHi: 0, startedAt: 0 };

export function matchesEvent(w: EventWorld, p: Predicate, e: number): boolean {
  if (!w.isLive(e)) return false;
  if (p.events && !p.events.has(e)) return false;
  const c = w.ev.cols;
  eventItem.importance = c.importance[e];
  eventItem.flags = c.flags[e];
  eventItem.catMask = c.catMask[e];
  eventItem.subLo = c.subLo[e];
  eventItem.subHi = c.subHi[e];
  eventItem.startedAt = c.startedAt[e];
  if (!matchesAttributes(p, eventItem)) return false;
  if (hasAssetPredicate(p) && !matchesAssets(w, p, w.assetsOf(e))) return false;
  return p.search === undefined || searchText(w, e).includes(p.search);
}

/** A development matches with its own attributes and its event's assets (used for alerts). */
export function matchesDevelopment(w: EventWorld, p: Predicate, d: number): boolean {
  const c = w.dev.cols;
  const e = c.event[d];
  if (!w.isLive(e) || (p.events && !p.events.has(e))) return false;
  let catMask = 0,
    subLo = 0,
    subHi = 0;
  for (const sub of [c.sub0[d], c.sub1[d]]) {
    if (sub === NO_SUBCATEGORY) continue;
    const bit = subcategoryBit(sub);
    subLo |= bit.lo;
    subHi |= bit.hi;
    catMask |= 1 << SUBCATEGORIES[sub].category;
  }
  const item: Item = {
    importance: c.importance[d],
    flags: c.flags[d],
    catMask,
    subLo: subLo >>> 0,
    subHi: subHi >>> 0,
    startedAt: c.startedAt[d],
  };
  return matchesAttributes(p, item) && (!hasAssetPredicate(p) || matchesAssets(w, p, w.assetsOf(e)));
}

/** Event indices matching `p`, newest `startedAt` first. */
export function matchingEvents(w: EventWorld, p: Predicate): number[] {
  const out: number[] = [];
  for (const e of w.byStartDescending()) if (matchesEvent(w, p, e)) out.push(e);
  return out;
}

function searchText(w: EventWorld, e: number): string {
  const names = w
    .assetsOf(e)
    .map((a) => `${w.assets.name(a)} ${w.assets.symbol(a)}`)
    .join(' ');
  return `${eventTitle(w, e)}\n${eventSummary(w, e)}\n${names}`.toLowerCase();
}
