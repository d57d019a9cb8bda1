// What both adapters share: identifier quoting, the JSON/Date conversion they start from, booleans as
// either store holds them, and how a multi-row statement is cut under a bind-parameter cap.
// The contract itself is `StoreAdapter` (types.ts).
export type { RejectedRow, StoreAdapter, UpsertPage } from './types.js';

/** Rows per multi-row statement whatever the cap: bigger statements stop paying off (measured). */
const MAX_ROWS_PER_STATEMENT = 1000;

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** JSON text for objects and arrays, ISO for Dates; scalars as they are. */
export function toDbCommon(value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return value;
}

/** `rowsPerStatement` of an adapter whose statements carry at most `maxParams` bind parameters. */
export function rowsUnder(maxParams: number): (paramsPerRow: number, fixedParams?: number) => number {
  return (paramsPerRow, fixedParams = 0) =>
    Math.max(1, Math.min(MAX_ROWS_PER_STATEMENT, Math.floor((maxParams - fixedParams) / Math.max(1, paramsPerRow))));
}

/** A boolean as either store may hold it (true, 1, '1', 't', 'true'). */
export function truthy(v: unknown): boolean {
  return v === true || v === 1 || v === '1' || v === 't' || v === 'true';
}
