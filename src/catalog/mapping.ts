// Turns a record into a row with the columns a stream declares. Nested objects become flat columns
// (`market_cap.rank` → market_cap_rank) so SQL can use them; arrays and objects kept whole become JSON.
import type { Row } from '../store/types.js';
import type { ColumnMap } from './types.js';

export function pick(record: unknown, path: string): unknown {
  let value: any = record;
  for (const part of path.split('.')) {
    if (value === null || value === undefined) return null;
    value = value[part];
  }
  return value === undefined ? null : value;
}

/**
 * A time field as the mirror writes every time: ISO 8601 UTC with milliseconds (`2025-05-31T18:56:10.000Z`),
 * so on SQLite a lifted time equals the mirror's own and text order is time order. Not a time: kept as given.
 */
export function isoTimeOf(field: string): (record: any) => unknown {
  return (record) => {
    const value = record?.[field];
    if (typeof value !== 'string') return value ?? null;
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? value : new Date(ms).toISOString();
  };
}

/**
 * A `/v1` time (Unix seconds) in the one form isoTimeOf writes; a text time (a record that spells it
 * `updatedAt`) is put in that form too. Anything else is kept as given.
 */
export function unixTimeOf(source: string | ((record: unknown) => unknown)): (record: unknown) => unknown {
  const get = typeof source === 'string' ? (record: unknown) => pick(record, source) : source;
  return (record) => {
    const value = get(record);
    if (typeof value === 'number') {
      const time = new Date(value * 1000);
      return Number.isNaN(time.getTime()) ? null : time.toISOString();
    }
    if (typeof value !== 'string') return value ?? null;
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? value : new Date(ms).toISOString();
  };
}

/** Unix-second fields, by column, as the store's one time form. */
export function unixTimes(columns: Record<string, string>): Record<string, (record: unknown) => unknown> {
  return Object.fromEntries(Object.entries(columns).map(([column, path]) => [column, unixTimeOf(path)]));
}

const DAY_PREFIX = /^\d{4}-\d{2}-\d{2}/;

/**
 * A date field as the mirror writes every date: `YYYY-MM-DD` (a PostgreSQL `date`, SQLite text in the same
 * form). A value that starts with a date keeps that day (the service's own calendar day, even with a time and
 * zone after it); another time is read as UTC; anything else is kept as given.
 */
export function isoDateOf(get: (record: unknown) => unknown): (record: unknown) => unknown {
  return (record) => {
    const value = get(record);
    if (typeof value !== 'string') return value ?? null;
    const day = DAY_PREFIX.exec(value);
    if (day) return day[0];
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? value : new Date(ms).toISOString().slice(0, 10);
  };
}

const compiled = new WeakMap<ColumnMap, (record: unknown) => Row>();

/** The row for a record; the column map is compiled once (paths split ahead, not per record). */
export function toRow(record: unknown, columns: ColumnMap): Row {
  let mapper = compiled.get(columns);
  if (!mapper) {
    mapper = compile(columns);
    compiled.set(columns, mapper);
  }
  return mapper(record);
}

function compile(columns: ColumnMap): (record: unknown) => Row {
  const getters = Object.entries(columns).map(([column, source]): [string, (r: any) => unknown] => {
    if (typeof source === 'function') return [column, source];
    const parts = source.split('.');
    if (parts.length === 1) return [column, (r) => r?.[source]];
    return [
      column,
      (r) => {
        let value = r;
        for (const part of parts) {
          if (value === null || value === undefined) return null;
          value = value[part];
        }
        return value;
      },
    ];
  });
  return (record) => {
    const row: Row = {};
    for (const [column, get] of getters) {
      const value = get(record);
      row[column] = value === undefined ? null : value;
    }
    return row;
  };
}

/** Columns for every field of a nested object, named `<prefix>_<field>`. */
export function nested(prefix: string, fields: readonly string[]): Record<string, string> {
  return Object.fromEntries(fields.map((f) => [`${prefix}_${f}`, `${prefix}.${f}`]));
}

/** Columns whose name is the field's own name. */
export function same(fields: readonly string[]): Record<string, string> {
  return Object.fromEntries(fields.map((f) => [f, f]));
}

/** The first present field of several spellings (records whose fields the spec does not show). */
export function firstOf(...paths: string[]): (record: unknown) => unknown {
  return (record) => {
    for (const p of paths) {
      const v = pick(record, p);
      if (v !== null) return v;
    }
    return null;
  };
}

/** Why a record cannot be mirrored, or null when it can. */
export function missingRequired(record: unknown, required: readonly string[]): string | null {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return 'record is not a JSON object';
  for (const field of required) {
    const v = pick(record, field);
    if (v === null || v === '') return `required field "${field}" is missing or null`;
  }
  return null;
}
