// PostgreSQL through pg (the pool and how it reads values: postgres-pool.ts). Page upserts are one
// statement per page whose rows travel as one jsonb array of arrays (postgres-upsert.ts): no 65,535
// bind-parameter cap, one text per table, prepared once per connection. Measured against unnest
// arrays, multi-row VALUES and COPY + merge in bench/store-upsert.ts.
import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../database.js';
import type { StoreBounds } from '../store-bounds.js';
import { quoteIdent, rowsUnder } from '../store-adapter.js';
import type { ColumnTypes, Row, StoreAdapter } from '../types.js';
import { openPostgres } from './postgres-pool.js';
import { postgresTables } from './postgres-tables.js';
import { PostgresUpserter } from './postgres-upsert.js';
import { toPostgresColumn, toPostgresValue } from './postgres-values.js';

export { heldRowsQuery } from './postgres-upsert-sql.js';

export const POSTGRES_COLUMN_TYPES: ColumnTypes = Object.freeze({
  text: 'text',
  integer: 'bigint', // /v1 ids reach 4294967295, past int4
  bigint: 'bigint',
  double: 'double precision',
  boolean: 'boolean',
  json: 'jsonb',
  timestamp: 'timestamptz',
  serial: 'bigserial',
});

const MAX_PARAMS = 65_535;

export async function createPostgresAdapter(
  url: string,
  schema: string | undefined,
  bounds: StoreBounds,
  logger?: Logger,
  readOnly = false,
): Promise<StoreAdapter> {
  const { db, migrationDb, close } = await openPostgres(url, schema, bounds, logger, readOnly);
  const upserter = new PostgresUpserter();
  return {
    dialect: 'postgres',
    db,
    migrationDb,
    schema,
    columnTypes: POSTGRES_COLUMN_TYPES,
    knowsColumnKinds: true,
    leaseHint: 'another worker holds it; it is released when that worker finishes, or taken over once it expires',
    rowsPerStatement: rowsUnder(MAX_PARAMS),
    toDb: toPostgresValue,
    toColumn: toPostgresColumn,
    upsertPage: (trx, page) => upserter.upsertPage(trx, page),
    listTables: () => postgresTables(db),
    readBatches: (relation, batchRows) => cursorBatches(db, relation, batchRows),
    async analyzeTables(tables) {
      for (const table of tables) await sql.raw(`analyze ${quoteIdent(table)}`).execute(db); // each under the statement bound
    },
    async durableCommits() {},
    // How long a write waits for a lock held elsewhere (an analyst's LOCK TABLE) before it fails as
    // "locked" (55P03): the stream fails and resumes next run, a delivery gets 503 and is sent again. The
    // same bound as SQLite's wait for another process's lock (`dbBusyTimeoutMs`). Migrations, which wait
    // for each other on purpose, are not bounded.
    async boundLockWait(trx) {
      await sql.raw(`set local lock_timeout = ${Math.max(1, Math.round(bounds.busyMs))}`).execute(trx);
    },
    async durableTransaction(trx) {
      await sql`set local synchronous_commit = on`.execute(trx);
    },
    leaseNow: () => sql<string>`statement_timestamp()`,
    leaseExpiry: (ttlMs) => sql<string>`statement_timestamp() + make_interval(secs => ${ttlMs / 1000})`,
    close,
  };
}

/**
 * A server-side cursor inside a read-only transaction (one consistent snapshot), held by hand: a
 * generator cannot yield from inside transaction().execute()'s callback.
 */
async function* cursorBatches(db: Kysely<Database>, relation: string, batchRows: number): AsyncGenerator<Row[]> {
  const trx = await db.startTransaction().setAccessMode('read only').execute();
  try {
    await sql.raw(`declare ds_export no scroll cursor for select * from ${quoteIdent(relation)}`).execute(trx);
    for (;;) {
      const { rows } = await sql.raw<Row>(`fetch forward ${batchRows} from ds_export`).execute(trx);
      if (rows.length > 0) yield rows;
      if (rows.length < batchRows) break;
    }
  } finally {
    // Read only: ending it either way changes nothing; a consumer that stops early lands here too.
    await trx
      .rollback()
      .execute()
      .catch(() => {});
  }
}
