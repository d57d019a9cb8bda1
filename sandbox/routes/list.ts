// The one list engine of /v1: filter, stable sort (ties and nulls decided once), page, envelope.
// Orders are memoized per epoch, so paging through a filtered, sorted list sorts it once.
import type { Collection } from '../core/collection.js';
import type { World } from '../data/world.js';

export type SortValue = number | string | boolean | null;

export interface ListPlan {
  /** Unique among plans of this epoch: resource + filters + order (not page or limit). */
  key: string;
  candidates: () => Int32Array;
  filter?: (i: number) => boolean;
  sortKey?: (i: number) => SortValue;
  dir?: 'asc' | 'desc';
}

export interface Envelope {
  page: number;
  total: number;
  data: unknown[];
}

export function ordered(w: World, plan: ListPlan): Int32Array {
  return w.memo(`list:${plan.key}`, () => {
    let idx = plan.candidates();
    if (plan.filter) {
      const f = plan.filter;
      idx = idx.filter((i) => f(i));
    }
    if (plan.sortKey) idx = sortIndices(idx, plan.sortKey, plan.dir ?? 'asc');
    else if (plan.dir === 'desc') idx = idx.slice().reverse();
    return idx;
  });
}

/** Nulls last in both directions; equal keys keep ascending index (= id) order, so paging is exact. */
export function sortIndices(idx: Int32Array, key: (i: number) => SortValue, dir: 'asc' | 'desc'): Int32Array {
  const keys = new Map<number, SortValue>();
  for (const i of idx) keys.set(i, key(i));
  const sign = dir === 'asc' ? 1 : -1;
  return idx.slice().sort((a, b) => {
    const ka = keys.get(a) ?? null;
    const kb = keys.get(b) ?? null;
    if (ka === null || kb === null) return ka === kb ? a - b : ka === null ? 1 : -1;
    if (ka < kb) return -sign;
    if (ka > kb) return sign;
    return a - b;
  });
}

/**
 * `total`: the spec leaves its meaning "not shown" and gives it the schema range 1..100. We serve the
 * number of matching records clamped into that range, so a client that trusts it as a count breaks
 * here as it would against the real service (a client's paging must never trust `total`).
 */
export function envelopeTotal(matching: number): number {
  return Math.min(100, Math.max(1, matching));
}

export function pageOf<T>(idx: ArrayLike<number>, page: number, limit: number, toJson: (i: number) => T): Envelope {
  const start = (page - 1) * limit;
  const data: T[] = [];
  for (let k = start; k < Math.min(idx.length, start + limit); k++) data.push(toJson(idx[k]));
  return { page, total: envelopeTotal(idx.length), data };
}

export function liveOf(coll: Collection): () => Int32Array {
  return () => coll.live();
}

/** Case-insensitive membership test for string filters. */
export function lowerSet(values: readonly string[] | undefined): Set<string> | undefined {
  return values ? new Set(values.map((s) => s.toLowerCase())) : undefined;
}
