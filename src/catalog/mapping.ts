// Turns a record into a row with the columns a stream declares. Nested objects become flat columns
// (`market_cap.rank` → market_cap_rank) so SQL can use them; arrays and objects kept whole become JSON.
import type { Row } from '../store/types.js';
import type { ColumnMap, ColumnSource, ValuePath } from './types.js';

export function pick(record: unknown, path: string): unknown {
  let value: any = record;
  for (const part of path.split('.')) {
    if (value === null || value === undefined) return null;
    value = value[part];
  }
  return value === undefined ? null : value;
}

/**
 * A text time (`isoTime`) as the mirror writes every time: ISO 8601 UTC with milliseconds
 * (`2025-05-31T18:56:10.000Z`), so on SQLite a lifted time equals the mirror's own and text order is time
 * order. Not a time: kept as given.
 */
export function isoTimeOf(field: string): ColumnSource {
  return { isoTime: field };
}

/**
 * A `/v1` time (Unix seconds) in the one form isoTimeOf writes; a text time (a record that spells it
 * `updatedAt`) is put in that form too. Anything else is kept as given.
 */
export function unixTimeOf(source: ValuePath): ColumnSource {
  return { unixTime: source };
}

/** Unix-second fields, by column, as the store's one time form. */
export function unixTimes(columns: Record<string, string>): Record<string, ColumnSource> {
  return Object.fromEntries(Object.entries(columns).map(([column, path]) => [column, unixTimeOf(path)]));
}

/**
 * A date field as the mirror writes every date: `YYYY-MM-DD` (a PostgreSQL `date`, SQLite text in the same
 * form). A value that starts with a date keeps that day (the service's own calendar day, even with a time and
 * zone after it); another time is read as UTC; anything else is kept as given.
 */
export function isoDateOf(source: ValuePath): ColumnSource {
  return { isoDate: source };
}

/** The first present field of several spellings (records whose fields the spec does not show). */
export function firstOf(...paths: string[]): ValuePath {
  return { firstOf: paths };
}

const DAY_PREFIX = /^\d{4}-\d{2}-\d{2}/;

function unixTime(value: unknown): unknown {
  if (typeof value === 'number') {
    const time = new Date(value * 1000);
    return Number.isNaN(time.getTime()) ? null : time.toISOString();
  }
  return isoTime(value);
}

function isoTime(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : new Date(ms).toISOString();
}

function isoDate(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null;
  const day = DAY_PREFIX.exec(value);
  if (day) return day[0];
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : new Date(ms).toISOString().slice(0, 10);
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
  const getters = Object.entries(columns).map(([column, source]): [string, (r: any) => unknown] => [column, reader(source)]);
  return (record) => {
    const row: Row = {};
    for (const [column, get] of getters) {
      const value = get(record);
      row[column] = value === undefined ? null : value;
    }
    return row;
  };
}

/** How a column source reads its value from a record. */
function reader(source: ColumnSource): (r: any) => unknown {
  if (typeof source === 'string') return pathReader(source);
  if ('firstOf' in source) {
    const paths = source.firstOf;
    return (r) => {
      for (const p of paths) {
        const v = pick(r, p);
        if (v !== null) return v;
      }
      return null;
    };
  }
  if ('isoTime' in source) {
    const field = source.isoTime;
    return (r) => isoTime(r?.[field]);
  }
  if ('unixTime' in source) {
    const get = valueReader(source.unixTime);
    return (r) => unixTime(get(r));
  }
  const get = valueReader(source.isoDate);
  return (r) => isoDate(get(r));
}

/** A dotted path read as `pick` reads it (a missing value is null), or the first present of several. */
function valueReader(path: ValuePath): (r: unknown) => unknown {
  return typeof path === 'string' ? (r) => pick(r, path) : reader(path);
}

/** A dotted path, its parts split once. */
function pathReader(source: string): (r: any) => unknown {
  const parts = source.split('.');
  if (parts.length === 1) return (r) => r?.[source];
  return (r) => {
    let value = r;
    for (const part of parts) {
      if (value === null || value === undefined) return null;
      value = value[part];
    }
    return value;
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

/** Why a record cannot be mirrored, or null when it can. */
export function missingRequired(record: unknown, required: readonly string[]): string | null {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return 'record is not a JSON object';
  for (const field of required) {
    const v = pick(record, field);
    if (v === null || v === '') return `required field "${field}" is missing or null`;
  }
  return null;
}
