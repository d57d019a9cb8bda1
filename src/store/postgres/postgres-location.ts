// `--db` as a PostgreSQL server: 'postgres://...' or 'postgresql://...', with `--db-schema` for the mirror's schema.
import { ConfigError } from '../../errors.js';
import type { StoreLocation } from '../store-dialect.js';
import { redactUrl } from '../redact-url.js';

export interface PostgresLocation extends StoreLocation {
  readonly dialect: 'postgres';
  readonly url: string;
  readonly schema?: string;
}

export const POSTGRES_URL_FORMS = 'postgres://...';

// Lower-case only: an unquoted name in search_path folds to lower case, a quoted one would not.
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function parsePostgresUrl(url: string, schema: string | undefined): PostgresLocation | undefined {
  if (!/^postgres(ql)?:\/\//i.test(url)) return undefined;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new ConfigError(`--db-schema "${schema}" is not a plain schema name: use lower-case letters, digits and _ (at most 63)`);
  }
  return { dialect: 'postgres', url, schema };
}

/** The URL without its password, and the schema. */
export function describePostgres(location: PostgresLocation): string {
  return redactUrl(location.url) + (location.schema ? ` (schema ${location.schema})` : '');
}

export function samePostgresDatabase(a: PostgresLocation, b: PostgresLocation): boolean {
  return a.url === b.url && (a.schema ?? '') === (b.schema ?? '');
}
