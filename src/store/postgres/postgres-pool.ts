// The pg pool behind the PostgreSQL adapter: every session runs in UTC with search_path set to the
// mirror's schema, and reads values the way SQLite does (int8 as number, json/jsonb as text,
// timestamptz as ISO `...Z`, a date as YYYY-MM-DD).
import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../database.js';
import { preparedStatementPool } from './prepared-pool.js';

const OID = { int8: 20, json: 114, jsonb: 3802, date: 1082, timestamptz: 1184 } as const;
const DUPLICATE_SCHEMA = ['42P06', '23505']; // two processes creating the schema at once

function getTypeParser(oid: number, format?: string): (value: string) => unknown {
  if (oid === OID.int8) return Number;
  if (oid === OID.json || oid === OID.jsonb || oid === OID.date) return (value) => value;
  if (oid === OID.timestamptz) {
    const parseDate = pg.types.getTypeParser(oid, 'text') as (value: string) => unknown;
    return (value) => {
      const date = parseDate(value);
      return date instanceof Date && !Number.isNaN(date.getTime()) ? date.toISOString() : value;
    };
  }
  return pg.types.getTypeParser(oid, format as 'text') as (value: string) => unknown;
}

/** Kysely over a pool of such sessions, the schema created if missing (`readOnly`: sessions that cannot write, nothing created). */
export async function openPostgres(url: string, schema: string | undefined, logger?: Logger, readOnly = false): Promise<Kysely<Database>> {
  // Mirror commits are asynchronous (like SQLite's WAL at synchronous=NORMAL): one transaction per
  // page would otherwise wait for a WAL flush each; durable transactions turn it back on.
  const options = [
    '-c TimeZone=UTC',
    '-c synchronous_commit=off',
    schema ? `-c search_path=${schema}` : '',
    readOnly ? '-c default_transaction_read_only=on' : '',
  ]
    .filter(Boolean)
    .join(' ');
  const pool = new pg.Pool({
    connectionString: url,
    options,
    types: { getTypeParser } as unknown as pg.CustomTypesConfig,
  });
  // A client that loses its server (a restart, a failover, pg_terminate_backend) emits 'error': the pool
  // listens for idle clients only, and an unheard 'error' would end the process. Every client gets a
  // listener; the query it was running fails (a storage error the caller reports), and the pool drops it.
  pool.on('error', (err) => logger?.warn({ err: err.message }, 'postgres connection lost'));
  pool.on('connect', (client) => client.on('error', (err) => logger?.warn({ err: err.message }, 'postgres connection lost')));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparedStatementPool(pool) }) });
  if (schema && !readOnly) await createSchema(db, schema);
  return db;
}

async function createSchema(db: Kysely<Database>, schema: string): Promise<void> {
  try {
    await db.schema.createSchema(schema).ifNotExists().execute();
  } catch (err) {
    if (DUPLICATE_SCHEMA.includes((err as { code?: string }).code ?? '')) return;
    await db.destroy();
    throw err;
  }
}
