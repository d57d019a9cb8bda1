// SQLite as the store sees it (store-dialect.ts): a file named by `--db`, opened through better-sqlite3.
import type { StoreDialect } from '../store-dialect.js';
import { createSqliteAdapter } from './sqlite-adapter.js';
import { SQLITE_ANALYST_SQL } from './sqlite-analyst-sql.js';
import { SQLITE_ERRORS } from './sqlite-errors.js';
import { parseSqliteUrl, sameSqliteFile, SQLITE_URL_FORMS, type SqliteLocation, sqliteFile } from './sqlite-location.js';
import { SQLITE_MIGRATOR } from './sqlite-migrator.js';

export const SQLITE: StoreDialect<SqliteLocation> = {
  name: 'sqlite',
  urlForms: SQLITE_URL_FORMS,
  parseUrl: parseSqliteUrl,
  describe: (location) => location.path,
  fileOf: sqliteFile,
  same: sameSqliteFile,
  open: async (location, opts) => createSqliteAdapter(location.path, opts.readOnly, opts.bounds.busyMs),
  transientCodes: ['SQLITE_BUSY'],
  errors: SQLITE_ERRORS,
  analystSql: SQLITE_ANALYST_SQL,
  migrator: SQLITE_MIGRATOR,
};
