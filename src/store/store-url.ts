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
      throw new ConfigError(
        `--db-schema "${schema}" is not a plain schema name: use lower-case letters, digits and _ (at most 63)`,
      );
    }
    return { dialect: 'postgres', url, schema };
  }
  if (schema !== undefined) {
    throw new ConfigError('--db-schema applies to PostgreSQL only; remove it or give a postgres:// URL to --db');
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) && !/^sqlite:/i.test(url)) {
    throw new ConfigError(
      `--db ${redactUrl(url)}: unsupported scheme; use postgres://..., sqlite:path/to/file.db or a file path`,
    );
  }
  let path = url.replace(/^sqlite:/i, '');
  // sqlite:///abs/file.db and sqlite://rel/file.db both mean a path after the two slashes.
  if (path.startsWith('//')) path = path.slice(2);
  if (path === '') throw new ConfigError('--db sqlite: needs a file path, e.g. sqlite:data/mirror.db');
  return { dialect: 'sqlite', path };
}

/** The URL with any password replaced, safe for logs and error messages. */
export function redactUrl(url: string): string {
  return url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@?#]*):[^@/?#]*@/i, '$1:***@')
    .replace(/([?&]password=)[^&#]*/gi, '$1***');
}
