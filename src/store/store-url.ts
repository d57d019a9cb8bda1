// Where the mirror lives: parsed once, at the edge, from `--db` (and `--db-schema`).
import { ConfigError } from '../errors.js';
import type { Dialect } from './types.js';

export type StoreLocation =
  | { dialect: Extract<Dialect, 'sqlite'>; path: string }
  | { dialect: Extract<Dialect, 'postgres'>; url: string; schema?: string };

// Lower-case only: an unquoted name in search_path folds to lower case, a quoted one would not.
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** 'postgres://...' / 'postgresql://...', 'sqlite:path', ':memory:' or a plain file path. */
export function parseStoreUrl(url: string, schema?: string): StoreLocation {
  if (url.trim() === '') throw new ConfigError('--db is empty: give a SQLite file path or a postgres:// URL');
  if (/^postgres(ql)?:\/\//i.test(url)) {
    if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
      throw new ConfigError(`--db-schema "${schema}" is not a plain schema name: use lower-case letters, digits and _ (at most 63)`);
    }
    return { dialect: 'postgres', url, schema };
  }
  if (schema !== undefined) {
    throw new ConfigError('--db-schema applies to PostgreSQL only; remove it or give a postgres:// URL to --db');
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) && !/^sqlite:/i.test(url)) {
    throw new ConfigError(`--db ${redactUrl(url)}: unsupported scheme; use postgres://..., sqlite:path/to/file.db or a file path`);
  }
  let path = url.replace(/^sqlite:/i, '');
  // sqlite:///abs/file.db and sqlite://rel/file.db both mean a path after the two slashes.
  if (path.startsWith('//')) path = path.slice(2);
  if (path === '') throw new ConfigError('--db sqlite: needs a file path, e.g. sqlite:data/mirror.db');
  return { dialect: 'sqlite', path };
}

/** The SQLite file a location names (undefined for PostgreSQL and for an in-memory database). */
export function locationFile(location: StoreLocation): string | undefined {
  return location.dialect === 'sqlite' && location.path !== ':memory:' ? location.path : undefined;
}

/** Whether two locations name the same database (two in-memory databases never do). */
export function sameLocation(a: StoreLocation, b: StoreLocation): boolean {
  if (a.dialect === 'sqlite' && b.dialect === 'sqlite') return a.path === b.path && a.path !== ':memory:';
  if (a.dialect === 'postgres' && b.dialect === 'postgres') return a.url === b.url && (a.schema ?? '') === (b.schema ?? '');
  return false;
}

/** The location for messages: the file, or the URL without its password and the schema. */
export function describeLocation(location: StoreLocation): string {
  if (location.dialect === 'sqlite') return location.path;
  return redactUrl(location.url) + (location.schema ? ` (schema ${location.schema})` : '');
}

/** The URL with any password replaced, safe for logs and error messages. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@?#]*):[^@/?#]*@/i, '$1:***@').replace(/([?&]password=)[^&#]*/gi, '$1***');
}
