// Where the mirror lives: parsed once, at the edge, from `--db` (and `--db-schema`), by the dialect whose
// scheme it is (<dialect>-location.ts).
import { ConfigError } from '../errors.js';
import { DIALECTS, dialectOf } from './dialects.js';
import { redactUrl } from './redact-url.js';
import type { StoreLocation } from './store-dialect.js';

export { redactUrl } from './redact-url.js';
export type { StoreLocation } from './store-dialect.js';

export function parseStoreUrl(url: string, schema?: string): StoreLocation {
  const forms = DIALECTS.map((d) => d.urlForms);
  if (url.trim() === '') throw new ConfigError(`--db is empty: give ${forms.join(' or ')}`);
  for (const dialect of DIALECTS) {
    const location = dialect.parseUrl(url, schema);
    if (location) return location;
  }
  throw new ConfigError(`--db ${redactUrl(url)}: unsupported scheme; use ${forms.join(', ')}`);
}

/** The file a location names (undefined for a server and for an in-memory database). */
export function locationFile(location: StoreLocation): string | undefined {
  return dialectOf(location).fileOf(location);
}

/** Whether two locations name the same database (two in-memory databases never do). */
export function sameLocation(a: StoreLocation, b: StoreLocation): boolean {
  return a.dialect === b.dialect && dialectOf(a).same(a, b);
}

/** The location for messages: the file, or the URL without its password and the schema. */
export function describeLocation(location: StoreLocation): string {
  return dialectOf(location).describe(location);
}
