// Turns a record into a row with the columns a catalog entry declares (src/catalog/mapping.ts). Nested
// objects become flat columns (`market_cap.rank` → market_cap_rank) so SQL can use them; arrays and objects
// kept whole become JSON. Times and dates are written in the store's one form.
import type { ColumnMap, ColumnSource, ValuePath } from '../catalog/types.js';
import type { Row } from '../store/types.js';

/** Dotted paths split once: they are the catalog's (a few dozen), and a split per read was an array per field of every record. */
const PATH_PARTS = new Map<string, readonly string[]>();

export function pick(record: unknown, path: string): unknown {
  let parts = PATH_PARTS.get(path);
  if (parts === undefined) {
    parts = path.split('.');
    if (PATH_PARTS.size < 10_000) PATH_PARTS.set(path, parts);
  }
  let value: any = record;
  for (const part of parts) {
    if (value === null || value === undefined) return null;
    value = value[part];
  }
  return value === undefined ? null : value;
}

const DAY_PREFIX = /^\d{4}-\d{2}-\d{2}/;

function unixTime(value: unknown): unknown {
  if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= 0 && value < LAST_ISO_SECOND) return isoSecond(value);
    const time = new Date(value * 1000);
    return Number.isNaN(time.getTime()) ? null : time.toISOString();
  }
  return isoTime(value);
}

/** Seconds of 10000-01-01T00:00:00Z: from there on, toISOString writes a six-digit year. */
const LAST_ISO_SECOND = 253_402_300_800;
const SECONDS_A_DAY = 86_400;
/** `YYYY-MM-DDT` of the days met (few: a page's times cluster), emptied should a run meet very many. */
const DAY_PREFIXES = new Map<number, string>();

/**
 * What `new Date(seconds * 1000).toISOString()` writes, for whole seconds from 1970 to 9999, without a
 * Date per value: a first sync maps 100,000 /v1 times at scale 10, and the Date and its text cost
 * about 5 µs each on a loaded machine (0.3-0.5 s of the sync), the day's prefix looked up 0.6 µs.
 */
function isoSecond(seconds: number): string {
  const day = Math.floor(seconds / SECONDS_A_DAY);
  let prefix = DAY_PREFIXES.get(day);
  if (prefix === undefined) {
    if (DAY_PREFIXES.size >= 10_000) DAY_PREFIXES.clear();
    prefix = new Date(day * SECONDS_A_DAY * 1000).toISOString().slice(0, 11);
    DAY_PREFIXES.set(day, prefix);
  }
  const inDay = seconds - day * SECONDS_A_DAY;
  return `${prefix}${twoDigits(Math.floor(inDay / 3600))}:${twoDigits(Math.floor(inDay / 60) % 60)}:${twoDigits(inDay % 60)}.000Z`;
}

const twoDigits = (n: number): string => (n < 10 ? `0${n}` : `${n}`);

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

/** Why a record cannot be mirrored (naming the required field it lacks), or null when it can. */
export function missingRequired(record: unknown, required: readonly string[]): { reason: string; field?: string } | null {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return { reason: 'record is not a JSON object' };
  for (const field of required) {
    const v = pick(record, field);
    if (v === null || v === '') return { reason: `required field "${field}" is missing or null`, field };
  }
  return null;
}
