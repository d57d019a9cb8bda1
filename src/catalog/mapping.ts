// The vocabulary of column sources: how a catalog entry says where a column's value is (a path, the first
// of several spellings, a time or date in the store's one form), as data. src/sync/row-mapping.ts reads them.
import type { ColumnSource, ValuePath } from './types.js';

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

/** Columns for every field of a nested object, named `<prefix>_<field>`. */
export function nested(prefix: string, fields: readonly string[]): Record<string, string> {
  return Object.fromEntries(fields.map((f) => [`${prefix}_${f}`, `${prefix}.${f}`]));
}

/** Columns whose name is the field's own name. */
export function same(fields: readonly string[]): Record<string, string> {
  return Object.fromEntries(fields.map((f) => [f, f]));
}
