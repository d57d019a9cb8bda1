// How a view lifts one field of `raw` into a typed column. Every lift checks the JSON type first, so a
// malformed value reads as null on both stores (a bare cast would give 0 on SQLite and an error on
// PostgreSQL). The SQL of each step comes from the store's analyst-SQL dialect (src/store/analyst-sql.ts).
import type { AnalystSql, ValueKind } from '../../src/store/analyst-sql.js';

export type { ValueKind };

export type ViewDialect = AnalystSql;

/** SQL for one dialect, given the alias of the row being read. */
export type Lift = (d: ViewDialect, alias: string) => string;

/** The JSON value's type name, and the value as a scalar, at a path of the row's `raw`. */
function typeOf(d: ViewDialect, alias: string, path: string): string {
  return d.jsonType(`${alias}.raw`, path);
}
function scalarOf(d: ViewDialect, alias: string, path: string): string {
  return d.jsonScalar(`${alias}.raw`, path);
}

export const lift = {
  text:
    (path: string): Lift =>
    (d, a) =>
      `case when ${typeOf(d, a, path)} ${d.isJson.string} then ${scalarOf(d, a, path)} end`,
  double:
    (path: string): Lift =>
    (d, a) =>
      `case when ${typeOf(d, a, path)} ${d.isJson.number} then ${d.toDouble(scalarOf(d, a, path))} end`,
  integer:
    (path: string): Lift =>
    (d, a) =>
      `case when ${typeOf(d, a, path)} ${d.isJson.number} then ${d.toInteger(scalarOf(d, a, path))} end`,
  boolean:
    (path: string): Lift =>
    (d, a) =>
      `case when ${typeOf(d, a, path)} ${d.isJson.boolean} then ${d.toBoolean(scalarOf(d, a, path))} end`,
  json:
    (path: string): Lift =>
    (d, a) =>
      `case when ${typeOf(d, a, path)} ${d.isJson.container} then ${d.jsonValue(`${a}.raw`, path)} end`,
  /** Unix seconds (the `/v1` services' times). */
  unixTime:
    (path: string): Lift =>
    (d, a) =>
      `case when ${typeOf(d, a, path)} ${d.isJson.number} then ${d.timeFromUnix(scalarOf(d, a, path))} end`,
  /** ISO 8601 text with a zone (monitoring and token-unlock times). */
  isoTime:
    (path: string): Lift =>
    (d, a) =>
      d.timeFromText(scalarOf(d, a, path), `${typeOf(d, a, path)} ${d.isJson.string}`),
  /** A calendar date, `YYYY-MM-DD`. */
  date:
    (path: string): Lift =>
    (d, a) =>
      d.dateFromText(scalarOf(d, a, path), `${typeOf(d, a, path)} ${d.isJson.string}`),
  /** An enumeration in its order, as a rank from 0; values outside it are null. */
  rank:
    (path: string, order: readonly string[]): Lift =>
    (d, a) =>
      rankOf(d, scalarOf(d, a, path), order),
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
    (d, a) =>
      rankOf(d, `${a}.${name}`, order),
};

/** A value's place in `order` from 0; cast, as PostgreSQL would type the literals `integer` where integers are `bigint`. */
function rankOf(d: ViewDialect, value: string, order: readonly string[]): string {
  return `cast(case ${value} ${order.map((v, i) => `when '${v}' then ${i}`).join(' ')} end as ${d.integerType})`;
}

/** Importance, lowest first: `importance_rank` 0..3. */
export const IMPORTANCE = ['not-important', 'low', 'medium', 'high'] as const;

/** The double type's name (a bare decimal literal is numeric on PostgreSQL, which pg reads as text). */
export function doubleType(d: ViewDialect): string {
  return d.doubleType;
}

/** The UTC calendar day of a time (already in the store's form). */
export function dayOf(d: ViewDialect, expr: string): string {
  return d.dayOf(expr);
}

/** The Monday that starts the ISO week of a time. */
export function weekOf(d: ViewDialect, expr: string): string {
  return d.weekOf(expr);
}

/** A stored time column normalised to the store's one form (SQLite text as toISOString writes it). */
export function isoColumn(d: ViewDialect, expr: string): string {
  return d.time(expr);
}
