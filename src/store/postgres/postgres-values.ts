// Values as PostgreSQL binds them: JSON text for objects and arrays, ISO for Dates (the engine's writes);
// for `copy`, a value read from either store as the target column's kind wants it (SQLite's 0/1 as a
// boolean, JSON kept as the text it already is).
import { toDbCommon, truthy } from '../store-adapter.js';
import type { ColumnKind } from '../types.js';

export const toPostgresValue = toDbCommon;

export function toPostgresColumn(kind: ColumnKind): (value: unknown) => unknown {
  if (kind === 'boolean') return (v) => (v === null || v === undefined ? null : truthy(v));
  if (kind === 'json') return (v) => (v === null || v === undefined || typeof v === 'string' ? (v ?? null) : JSON.stringify(v));
  return (v) => v ?? null;
}
