// Values between dialects. Each column's kind comes from the PostgreSQL side when there is one (SQLite
// declares booleans as integer, JSON and times as text). Converting for the target follows what the
// adapters' toDb does on write; normalizing gives one form to compare rows of either store.
import type { ColumnKind, TableInfo } from './store-tables.js';
import type { Dialect } from './types.js';

export type Convert = (value: unknown) => unknown;

/** Kind per column name of a table present in both stores. */
export function columnKinds(source: TableInfo, sourceDialect: Dialect, target: TableInfo, targetDialect: Dialect): Map<string, ColumnKind> {
  const decisive = sourceDialect === 'postgres' || targetDialect !== 'postgres' ? source : target;
  return new Map(decisive.columns.map((c) => [c.name, c.kind]));
}

export function toTarget(kind: ColumnKind, target: Dialect): Convert {
  if (target === 'sqlite') {
    return (v) => {
      if (typeof v === 'boolean') return v ? 1 : 0;
      if (v instanceof Date) return v.toISOString();
      if (v !== null && typeof v === 'object') return JSON.stringify(v);
      return v ?? null;
    };
  }
  if (kind === 'boolean') return (v) => (v === null || v === undefined ? null : truthy(v));
  if (kind === 'json') return (v) => (v === null || v === undefined || typeof v === 'string' ? (v ?? null) : JSON.stringify(v));
  return (v) => v ?? null;
}

/** One comparable form: booleans 0/1, JSON with sorted keys, times as ISO UTC with milliseconds. */
export function normalizer(kind: ColumnKind): Convert {
  switch (kind) {
    case 'boolean':
      return (v) => (v === null || v === undefined ? null : truthy(v) ? 1 : 0);
    case 'json':
      return (v) => (v === null || v === undefined ? null : canonicalJson(v));
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

function truthy(v: unknown): boolean {
  return v === true || v === 1 || v === '1' || v === 't' || v === 'true';
}

function canonicalJson(v: unknown): string {
  let parsed = v;
  if (typeof v === 'string') {
    try {
      parsed = JSON.parse(v);
    } catch {
      return v; // not JSON: compare the text as it is
    }
  }
  return JSON.stringify(sortKeys(parsed));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]));
}
