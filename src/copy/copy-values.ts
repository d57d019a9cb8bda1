// Values between dialects. Each column's kind comes from the PostgreSQL side when there is one (SQLite
// declares booleans as integer, JSON and times as text). Converting for the target is the target
// adapter's `toColumn`; normalizing gives one form to compare rows of either store.
import { truthy } from '../store/store-adapter.js';
import type { ColumnKind, StoreAdapter, TableInfo } from '../store/types.js';

type KindsKnown = Pick<StoreAdapter, 'knowsColumnKinds'>;

type Convert = (value: unknown) => unknown;

/** Kind per column name of a table present in both stores. */
export function columnKinds(
  source: TableInfo,
  sourceAdapter: KindsKnown,
  target: TableInfo,
  targetAdapter: KindsKnown,
): Map<string, ColumnKind> {
  const decisive = sourceAdapter.knowsColumnKinds || !targetAdapter.knowsColumnKinds ? source : target;
  return new Map(decisive.columns.map((c) => [c.name, c.kind]));
}

/** One comparable form (compare with sameValue): booleans 0/1, JSON parsed, times as ISO UTC with milliseconds. */
export function normalizer(kind: ColumnKind): Convert {
  switch (kind) {
    case 'boolean':
      return (v) => (v === null || v === undefined ? null : truthy(v) ? 1 : 0);
    case 'json':
      return (v) => (typeof v === 'string' ? parseJson(v) : (v ?? null));
    case 'timestamp':
      return (v) => {
        if (typeof v !== 'string' && !(v instanceof Date)) return v ?? null;
        const ms = v instanceof Date ? v.getTime() : Date.parse(v);
        return Number.isNaN(ms) ? v : new Date(ms).toISOString();
      };
    case 'integer':
    case 'double':
      return (v) => (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : (v ?? null));
    default:
      return (v) => (typeof v === 'boolean' ? (v ? 1 : 0) : (v ?? null));
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text; // not JSON: compare the text as it is
  }
}

/** Deep equality of normalized values; object key order does not count (jsonb reorders keys). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  if (Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.hasOwn(b, k) && sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
