// PostgreSQL as the store sees it (store-dialect.ts): a server named by a postgres:// URL, and a schema.
import type { StoreDialect } from '../store-dialect.js';
import { POSTGRES_ANALYST_SQL } from './postgres-analyst-sql.js';
import { POSTGRES_ERRORS, SILENT_CODE } from './postgres-errors.js';
import {
  describePostgres,
  parsePostgresUrl,
  type PostgresLocation,
  POSTGRES_URL_FORMS,
  samePostgresDatabase,
} from './postgres-location.js';
import { POSTGRES_MIGRATOR } from './postgres-migrator.js';

export const POSTGRES: StoreDialect<PostgresLocation> = {
  name: 'postgres',
  urlForms: POSTGRES_URL_FORMS,
  parseUrl: parsePostgresUrl,
  describe: describePostgres,
  fileOf: () => undefined,
  same: samePostgresDatabase,
  // pg loads only when a PostgreSQL store is opened.
  open: async (location, opts) =>
    (await import('./postgres-adapter.js')).createPostgresAdapter(location.url, location.schema, opts.bounds, opts.logger, opts.readOnly),
  // The server is starting up; it did not answer within its bound.
  transientCodes: ['57P03', SILENT_CODE],
  errors: POSTGRES_ERRORS,
  analystSql: POSTGRES_ANALYST_SQL,
  migrator: POSTGRES_MIGRATOR,
};
