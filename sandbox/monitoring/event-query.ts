// Reads the events filters (all 15, spec order) from a query string into a Predicate, and the
// shared value readers that monitoring views use too. Bad values give a message for a 400.
import type { AssetUniverse } from './asset-universe.js';
import type { EventWorld } from './event-world.js';
import type { Predicate } from './predicate.js';
import { QUERY_PARAMS, listParam } from './query-params.js';
import { resolveEvent } from './records.js';
import { IMPORTANCE, categoryIndex, subcategoryBit, subcategoryIndex } from './taxonomy.js';
import { parseTimeBound } from './time-format.js';
import { NETWORK_COUNT, SECTORS, slugify } from './vocabulary.js';

export const MAX_SEARCH = 200;

export class QueryError extends Error {}

export function categoryMask(slugs: readonly string[]): number {
  return slugs.reduce((mask, s) => mask | (categoryIndex(s) === undefined ? 0 : 1 << categoryIndex(s)!), 0);
}

export function subcategoryMask(slugs: readonly string[]): { lo: number; hi: number } {
  let lo = 0,
    hi = 0;
  for (const s of slugs) {
    const i = subcategoryIndex(s);
    if (i === undefined) continue;
    const bit = subcategoryBit(i);
    lo |= bit.lo;
    hi |= bit.hi;
  }
  return { lo: lo >>> 0, hi: hi >>> 0 };
}

/** Sector names match case-insensitively, in display ("Financial Services") or slug form. */
export function sectorIndices(names: readonly string[]): Set<number> {
  const wanted = new Set(names.map(slugify));
  return new Set(SECTORS.flatMap((s, i) => (wanted.has(slugify(s.name)) ? [i] : [])));
}

export function subsectorKeys(names: readonly string[]): Set<number> {
  const wanted = new Set(names.map(slugify));
  return new Set(SECTORS.flatMap((s, i) => s.subsectors.flatMap((sub, j) => (wanted.has(slugify(sub)) ? [i * 16 + j] : []))));
}

/** Ecosystem networks are network assets (UUID or slug); unknown ones add nothing to the mask. */
export function networkMask(universe: AssetUniverse, tokens: readonly string[]): number {
  return tokens.reduce((mask, t) => {
    const a = universe.resolve(t);
    return a >= 0 && a < NETWORK_COUNT ? mask | (1 << a) : mask;
  }, 0);
}

export function importanceLevel(name: string, param: string): number | undefined {
  if (name === '') return undefined;
  const level = (IMPORTANCE as readonly string[]).indexOf(name.toLowerCase());
  if (level < 0) throw new QueryError(`${param} must be one of ${IMPORTANCE.join(', ')}; got "${name}"`);
  return level;
}

function booleanParam(query: URLSearchParams, name: string): boolean | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  if (/^(true|1)$/i.test(raw)) return true;
  if (/^(false|0)$/i.test(raw)) return false;
  throw new QueryError(`${name} must be true or false; got "${raw}"`);
}

function timeParam(query: URLSearchParams, name: string, bound: 'start' | 'end'): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  const t = parseTimeBound(raw, bound);
  if (Number.isNaN(t)) throw new QueryError(`${name} must be RFC 3339, YYYY-MM-DD or Unix seconds; got "${raw}"`);
  return t;
}

export function searchParam(query: URLSearchParams, name: string): string | undefined {
  const raw = query.get(name);
  if (raw === null || raw.trim() === '') return undefined;
  if (raw.length > MAX_SEARCH) throw new QueryError(`${name} must be at most ${MAX_SEARCH} characters`);
  return raw.trim().toLowerCase();
}

/** Throws QueryError (a 400) for unreadable values and unresolvable event identifiers. */
export function eventsPredicate(w: EventWorld, query: URLSearchParams): Predicate {
  const n = QUERY_PARAMS.events;
  const has = (name: string): boolean => listParam(query, name).length > 0;
  const p: Predicate = {};

  // Unresolved asset tokens are dropped silently; nothing left means no asset restriction.
  const assets = listParam(query, n.assetIds)
    .map((t) => w.assets.resolve(t))
    .filter((a) => a >= 0);
  if (assets.length > 0) p.assets = new Set(assets);

  if (has(n.eventIds)) {
    p.events = new Set(
      listParam(query, n.eventIds).map((token) => {
        const e = resolveEvent(w, token);
        if (e < 0) throw new QueryError(`unknown event identifier "${token}"`);
        return e;
      }),
    );
  }
  if (has(n.intelCategories)) p.categoryMask = categoryMask(listParam(query, n.intelCategories));
  if (has(n.intelSubcategories)) p.subcategoryMask = subcategoryMask(listParam(query, n.intelSubcategories));
  p.minImportance = importanceLevel(query.get(n.minimumImportance) ?? '', n.minimumImportance);
  p.verified = booleanParam(query, n.verified);
  p.actionable = booleanParam(query, n.actionable);
  p.governance = booleanParam(query, n.governance);
  if (has(n.assetSectors)) p.sectors = sectorIndices(listParam(query, n.assetSectors));
  if (has(n.assetSubsectors)) p.subsectors = subsectorKeys(listParam(query, n.assetSubsectors));
  p.preTge = booleanParam(query, n.assetPreTge);
  if (has(n.assetEcosystemNetworkIds)) p.networkMask = networkMask(w.assets, listParam(query, n.assetEcosystemNetworkIds));
  p.start = timeParam(query, n.start, 'start');
  p.end = timeParam(query, n.end, 'end');
  p.search = searchParam(query, n.search);
  return p;
}
