// `--db` as a SQLite file: 'sqlite:path', 'sqlite:///abs/path', ':memory:' or a plain path (no scheme).
import { ConfigError } from '../../errors.js';
import type { StoreLocation } from '../store-dialect.js';

export interface SqliteLocation extends StoreLocation {
  readonly dialect: 'sqlite';
  readonly path: string;
}

export const SQLITE_URL_FORMS = 'sqlite:path/to/file.db or a file path';

/** The file `url` names, or undefined when it has another scheme (a server's URL). */
export function parseSqliteUrl(url: string, schema: string | undefined): SqliteLocation | undefined {
  // Any other scheme (`postgress://`, `sqllite:x.db`) is another dialect's or a typo, never a file name;
  // a single letter before the colon is left to be a path (a Windows drive, `C:\\data`).
  if (/^[a-z][a-z0-9+.-]+:/i.test(url) && !/^sqlite:/i.test(url)) return undefined;
  if (schema !== undefined) {
    throw new ConfigError('--db-schema applies to PostgreSQL only; remove it or give a postgres:// URL to --db');
  }
  let path = url.replace(/^sqlite:/i, '');
  // sqlite:///abs/file.db and sqlite://rel/file.db both mean a path after the two slashes.
  if (path.startsWith('//')) path = path.slice(2);
  if (path === '') throw new ConfigError('--db sqlite: needs a file path, e.g. sqlite:data/mirror.db');
  return { dialect: 'sqlite', path };
}

/** The file, unless the database lives in memory. */
export function sqliteFile(location: SqliteLocation): string | undefined {
  return location.path !== ':memory:' ? location.path : undefined;
}

/** Two in-memory databases are never the same. */
export function sameSqliteFile(a: SqliteLocation, b: SqliteLocation): boolean {
  return a.path === b.path && a.path !== ':memory:';
}
