// One value as an export writes it, by the column's kind, whatever the store returned: SQLite's 0/1
// booleans and ISO texts, PostgreSQL's booleans and (as the adapter reads them) ISO texts and JSON text.
import type { ValueKind } from '../../schema/views/index.js';

export type ExportValue = string | number | bigint | boolean | Date | unknown[] | Record<string, unknown> | null;

function toNumber(value: unknown): number | null {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'bigint'
        ? Number(value)
        : typeof value === 'string' && value.trim() !== ''
          ? Number(value)
          : NaN;
  return Number.isFinite(n) ? n : null;
}

function toDate(value: unknown): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const date = new Date(typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The typed value (Parquet's input); null for anything that is not of the column's kind. */
export function typedValue(kind: ValueKind, value: unknown): ExportValue {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'integer': {
      const n = toNumber(value);
      return n === null ? null : BigInt(Math.trunc(n));
    }
    case 'double':
      return toNumber(value);
    case 'boolean':
      return value === true || value === 1 || value === '1' || value === 'true'
        ? true
        : value === false || value === 0 || value === '0' || value === 'false'
          ? false
          : null;
    case 'timestamp':
    case 'date':
      return toDate(value);
    case 'json':
      if (typeof value !== 'string') return value as ExportValue;
      try {
        return JSON.parse(value) as ExportValue;
      } catch {
        return null;
      }
    default:
      return typeof value === 'string' ? value : String(value);
  }
}

/** The value as CSV text (before quoting): ISO times, YYYY-MM-DD dates, JSON as compact text. */
export function csvText(kind: ValueKind, value: unknown): string {
  const typed = typedValue(kind, value);
  if (typed === null) return '';
  if (typed instanceof Date) return kind === 'date' ? typed.toISOString().slice(0, 10) : typed.toISOString();
  if (kind === 'json') return JSON.stringify(typed);
  return String(typed);
}
