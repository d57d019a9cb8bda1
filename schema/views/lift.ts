// How a view lifts one field of `raw` into a typed column, per dialect. Every lift checks the JSON type
// first, so a malformed value reads as null on both stores (a bare cast would give 0 on SQLite and an
// error on PostgreSQL). Times come out as one representation per store: ISO 8601 UTC text with
// milliseconds on SQLite (`2025-05-31T18:56:10.000Z`, what JavaScript's toISOString writes), and
// `timestamptz` / `date` on PostgreSQL.
import type { Dialect } from '../../src/store/types.js';

export type ViewDialect = Dialect;

/** What a view column holds, the same on both stores (PostgreSQL type / SQLite storage in comments). */
export type ValueKind =
  | 'text'
  | 'integer' // bigint / integer
  | 'double' // double precision / real
  | 'boolean' // boolean / 0-1 integer
  | 'json' // jsonb / JSON text
  | 'timestamp' // timestamptz / ISO 8601 UTC text
  | 'date'; // date / YYYY-MM-DD text

/** SQL for one dialect, given the alias of the row being read. */
export type Lift = (d: ViewDialect, alias: string) => string;

export const ISO_FORMAT = `'%Y-%m-%dT%H:%M:%fZ'`;

function sqlitePath(path: string): string {
  return `'$.${path}'`;
}
function pgPath(path: string): string {
  return `'{${path.split('.').join(',')}}'`;
}
/** The JSON value's type name: SQLite json_type / PostgreSQL jsonb_typeof. */
function typeOf(d: ViewDialect, alias: string, path: string): string {
  return d === 'sqlite' ? `json_type(${alias}.raw, ${sqlitePath(path)})` : `jsonb_typeof(${alias}.raw #> ${pgPath(path)})`;
}
/** The value itself: a scalar on SQLite, text on PostgreSQL. */
function valueOf(d: ViewDialect, alias: string, path: string): string {
  return d === 'sqlite' ? `json_extract(${alias}.raw, ${sqlitePath(path)})` : `(${alias}.raw #>> ${pgPath(path)})`;
}
const NUMBER = { sqlite: `in ('integer', 'real')`, postgres: `= 'number'` } as const;

export const lift = {
  text:
    (path: string): Lift =>
    (d, a) =>
      `case when ${typeOf(d, a, path)} = ${d === 'sqlite' ? `'text'` : `'string'`} then ${valueOf(d, a, path)} end`,
  double:
    (path: string): Lift =>
    (d, a) =>
      `case when ${typeOf(d, a, path)} ${NUMBER[d]} then ${d === 'sqlite' ? `cast(${valueOf(d, a, path)} as real)` : `${valueOf(d, a, path)}::double precision`} end`,
  integer:
    (path: string): Lift =>
    (d, a) =>
      `case when ${typeOf(d, a, path)} ${NUMBER[d]} then ${d === 'sqlite' ? `cast(round(${valueOf(d, a, path)}) as integer)` : `round(${valueOf(d, a, path)}::numeric)::bigint`} end`,
  boolean:
    (path: string): Lift =>
    (d, a) =>
      `case when ${typeOf(d, a, path)} in ('true', 'false'${d === 'postgres' ? `, 'boolean'` : ''}) then ${d === 'sqlite' ? valueOf(d, a, path) : `${valueOf(d, a, path)}::boolean`} end`,
  json:
    (path: string): Lift =>
    (d, a) =>
      `case when ${typeOf(d, a, path)} in ('array', 'object') then ${d === 'sqlite' ? valueOf(d, a, path) : `${a}.raw #> ${pgPath(path)}`} end`,
  /** Unix seconds (the `/v1` services' times). */
  unixTime:
    (path: string): Lift =>
    (d, a) =>
      `case when ${typeOf(d, a, path)} ${NUMBER[d]} then ${d === 'sqlite' ? `strftime(${ISO_FORMAT}, ${valueOf(d, a, path)}, 'unixepoch')` : `to_timestamp(${valueOf(d, a, path)}::double precision)`} end`,
  /** ISO 8601 text with a zone (monitoring and token-unlock times). */
  isoTime:
    (path: string): Lift =>
    (d, a) =>
      d === 'sqlite'
        ? `strftime(${ISO_FORMAT}, ${lift.text(path)(d, a)})`
        : `case when ${valueOf(d, a, path)} ~ '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}' and ${typeOf(d, a, path)} = 'string' then ${valueOf(d, a, path)}::timestamptz end`,
  /** A calendar date, `YYYY-MM-DD`. */
  date:
    (path: string): Lift =>
    (d, a) =>
      d === 'sqlite'
        ? `date(${lift.text(path)(d, a)})`
        : `case when ${valueOf(d, a, path)} ~ '^\\d{4}-\\d{2}-\\d{2}$' and ${typeOf(d, a, path)} = 'string' then ${valueOf(d, a, path)}::date end`,
  /** An enumeration in its order, as a rank from 0; values outside it are null. */
  rank:
    (path: string, order: readonly string[]): Lift =>
    (d, a) =>
      `case ${valueOf(d, a, path)} ${order.map((v, i) => `when '${v}' then ${i}`).join(' ')} end`,
  /** One of the table's own columns, as stored. */
  column:
    (name: string): Lift =>
    (_d, a) =>
      `${a}.${name}`,
  /** One of the table's own time columns, in the store's one form. */
  timeColumn:
    (name: string): Lift =>
    (d, a) =>
      isoColumn(d, `${a}.${name}`),
  /** An enumeration column in its order, as a rank from 0. */
  rankColumn:
    (name: string, order: readonly string[]): Lift =>
    (_d, a) =>
      `case ${a}.${name} ${order.map((v, i) => `when '${v}' then ${i}`).join(' ')} end`,
};

/** Importance, lowest first: `importance_rank` 0..3. */
export const IMPORTANCE = ['not-important', 'low', 'medium', 'high'] as const;

/** The double type's name (a bare decimal literal is numeric on PostgreSQL, which pg reads as text). */
export function doubleType(d: ViewDialect): string {
  return d === 'sqlite' ? 'real' : 'double precision';
}

/** The UTC calendar day of a time (already in the store's form). */
export function dayOf(d: ViewDialect, expr: string): string {
  return d === 'sqlite' ? `date(${expr})` : `(${expr} at time zone 'UTC')::date`;
}

/** The Monday that starts the ISO week of a time. */
export function weekOf(d: ViewDialect, expr: string): string {
  return d === 'sqlite' ? `date(${expr}, '-6 days', 'weekday 1')` : `date_trunc('week', ${expr} at time zone 'UTC')::date`;
}

/** A stored time column normalised to the store's one form (SQLite text as toISOString writes it). */
export function isoColumn(d: ViewDialect, expr: string): string {
  return d === 'sqlite' ? `strftime(${ISO_FORMAT}, ${expr})` : expr;
}
