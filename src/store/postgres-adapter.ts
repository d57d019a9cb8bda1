// PostgreSQL through pg: every session runs in UTC with search_path set to the mirror's schema, and
// reads values the way SQLite does (int8 as number, json/jsonb as text, timestamptz as ISO `...Z`).
// Upserts are one statement per page whose rows travel as one jsonb array of arrays (jsonb-rows.ts):
// no 65,535 bind-parameter cap, one text per table, prepared once per connection (prepared-pool.ts).
// Measured against unnest arrays, multi-row VALUES and COPY + merge in bench/store-upsert.ts.
import pg from 'pg';
import { CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import type { Logger } from 'pino';
import { PREPARED, preparedStatementPool } from './prepared-pool.js';
import { quoteIdent, toDbCommon } from './store-adapter.js';
import { jsonbRows, type JsonbRows } from './jsonb-rows.js';
import { keyString } from './types.js';
import { valueCheck, type ValueCheck } from './pg-values.js';
import { isRecordError } from './storage-errors.js';
import type { RejectedRow, StoreAdapter, UpsertPage } from './store-adapter.js';
import type { ColumnTypes } from './types.js';

const OID = { int8: 20, json: 114, jsonb: 3802, date: 1082, timestamptz: 1184 } as const;
const ROWS_PER_STATEMENT = 10_000; // bounds the size of one statement's arrays
const PREFILTER_MIN_ROWS = 10; // below it, one statement costs less than a look-up and a statement
const DUPLICATE_SCHEMA = ['42P06', '23505']; // two processes creating the schema at once

function getTypeParser(oid: number, format?: string): (value: string) => unknown {
  if (oid === OID.int8) return Number;
  if (oid === OID.json || oid === OID.jsonb || oid === OID.date) return (value) => value; // a date stays YYYY-MM-DD
  if (oid === OID.timestamptz) {
    const parseDate = pg.types.getTypeParser(oid, 'text') as (value: string) => unknown;
    return (value) => {
      const date = parseDate(value);
      return date instanceof Date && !Number.isNaN(date.getTime()) ? date.toISOString() : value;
    };
  }
  return pg.types.getTypeParser(oid, format as 'text') as (value: string) => unknown;
}

/**
 * The stored row_hash of each given key ($1.. are arrays of the key columns), and whether it is live.
 * One primary-key probe per key, whatever the statistics: a plan cached while the table was empty (a
 * first sync) would otherwise scan every row for every page. Hence LATERAL with OFFSET 0 (never
 * flattened into a join) and no deleted_at in the WHERE (which makes the partial live-keys index, led
 * by other columns, look cheaper).
 */
export function heldRowsQuery(table: string, key: readonly string[], keyTypes: readonly string[]): string {
  const match = key.map((k, i) => `${quoteIdent(k)} = k.c${i}`).join(' and ');
  return (
    `select t.* from unnest(${keyTypes.map((type, i) => `$${i + 1}::${type}[]`).join(', ')}) as k(${key.map((_, i) => `c${i}`).join(', ')}) ` +
    `cross join lateral (select ${key.map(quoteIdent).join(', ')}, row_hash, deleted_at is null as live from ${quoteIdent(table)} where ${match} offset 0) as t`
  );
}

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

export async function createPostgresAdapter(url: string, schema: string | undefined, logger?: Logger): Promise<StoreAdapter> {
  // Mirror commits are asynchronous (like SQLite's WAL at synchronous=NORMAL): one transaction per
  // page would otherwise wait for a WAL flush each; durable transactions turn it back on.
  const options = ['-c TimeZone=UTC', '-c synchronous_commit=off', schema ? `-c search_path=${schema}` : ''].filter(Boolean).join(' ');
  const pool = new pg.Pool({
    connectionString: url,
    options,
    types: { getTypeParser } as unknown as pg.CustomTypesConfig,
  });
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', (err) => logger?.warn({ err: err.message }, 'postgres connection lost'));
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: preparedStatementPool(pool) }) });
  if (schema) {
    try {
      await db.schema.createSchema(schema).ifNotExists().execute();
    } catch (err) {
      if (!DUPLICATE_SCHEMA.includes((err as { code?: string }).code ?? '')) {
        await db.destroy();
        throw err;
      }
    }
  }
  const tableTypes = new Map<string, Map<string, string>>();

  async function typesOf(trx: Kysely<any>, table: string, columns: readonly string[]): Promise<string[]> {
    let types = tableTypes.get(table);
    if (!types || columns.some((c) => !types!.has(c))) {
      const { rows } = await trx.executeQuery<{ name: string; type: string }>(
        CompiledQuery.raw(
          'select attname as name, format_type(atttypid, atttypmod) as type from pg_attribute ' +
            'where attrelid = to_regclass($1) and attnum > 0 and not attisdropped',
          [quoteIdent(table)],
        ),
      );
      types = new Map(rows.map((r) => [r.name, r.type]));
      tableTypes.set(table, types);
    }
    return columns.map((c) => {
      const type = types!.get(c);
      if (!type) throw new Error(`upsert into ${table}: no column "${c}" in the table (is a migration missing?)`);
      // Lists are stored as t.json: a row's values travel as JSON, which has no PostgreSQL array literal.
      if (type.endsWith('[]')) throw new Error(`upsert into ${table}: column "${c}" is ${type}; store lists as t.json`);
      return type;
    });
  }

  // Per table and column list: the statement's text and its row encoder, built once, not per page.
  const upserts = new Map<string, { text: string; encoding: JsonbRows }>();
  const checks = new Map<string, (ValueCheck | null)[]>();

  /** The rows whose values certainly fit their columns; the others are rejected with the reason. */
  function fitting(page: UpsertPage, types: string[], rejected: RejectedRow[]): unknown[][] {
    const id = `${page.table}\u0000${page.columns.join(',')}`;
    let perColumn = checks.get(id);
    if (!perColumn) checks.set(id, (perColumn = types.map(valueCheck)));
    const rows: unknown[][] = [];
    for (let r = 0; r < page.rows.length; r++) {
      const row = page.rows[r]!;
      let reason: string | null = null;
      for (let c = 0; c < perColumn.length && reason === null; c++) {
        const problem = perColumn[c]?.(row[c]);
        if (problem) reason = `column "${page.columns[c]}" (${types[c]}): ${problem}`;
      }
      if (reason === null) rows.push(row);
      else rejected.push({ index: r, reason });
    }
    return rows;
  }

  function upsertStatement(page: UpsertPage, types: string[]): { text: string; encoding: JsonbRows } {
    const id = `${page.table}\u0000${page.key.join(',')}\u0000${page.columns.join(',')}`;
    let statement = upserts.get(id);
    if (!statement) {
      const keys = new Set(page.key);
      const sets = page.columns.filter((c) => !keys.has(c)).map((c) => `${quoteIdent(c)} = excluded.${quoteIdent(c)}`);
      const encoding = jsonbRows(types, page.columns.map((c) => `${page.table}.${c}`));
      const text =
        PREPARED +
        `insert into ${quoteIdent(page.table)} as t (${page.columns.map(quoteIdent).join(', ')}, first_seen_at, synced_at, deleted_at) ` +
        `select ${encoding.select}, $2::timestamptz, $2::timestamptz, null from jsonb_array_elements($1::jsonb) as e ` +
        `on conflict (${page.key.map(quoteIdent).join(', ')}) do update set ${sets.join(', ')}, ` +
        'synced_at = excluded.synced_at, deleted_at = null ' +
        'where t.row_hash is distinct from excluded.row_hash or t.deleted_at is not null ' +
        'returning (xmax = 0) as inserted';
      statement = { text, encoding };
      upserts.set(id, statement);
    }
    return statement;
  }

  async function upsertChunk(trx: Kysely<any>, page: UpsertPage, rows: readonly unknown[][], types: string[]) {
    const { text, encoding } = upsertStatement(page, types);
    const result = await trx.executeQuery<{ inserted: boolean }>(CompiledQuery.raw(text, [encoding.encode(rows), page.now]));
    const inserted = result.rows.filter((r) => r.inserted).length;
    return { inserted, updated: result.rows.length - inserted };
  }

  /**
   * The rows the table does not already hold, live and with the same row_hash. An incremental run
   * re-reads whole pages around each change; sending only the changed rows spares PostgreSQL parsing
   * (jsonb included) and checking every unchanged one. The upsert's own WHERE stays the guarantee:
   * a row this misses is still written only if it changed.
   */
  async function withoutUnchanged(trx: Kysely<any>, page: UpsertPage, types: string[]): Promise<readonly unknown[][]> {
    const hashAt = page.columns.indexOf('row_hash');
    if (hashAt < 0 || page.rows.length < PREFILTER_MIN_ROWS) return page.rows;
    const keyAt = page.key.map((k) => page.columns.indexOf(k));
    const { rows: held } = await trx.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(
        PREPARED + heldRowsQuery(page.table, page.key, keyAt.map((at) => types[at]!)),
        keyAt.map((at) => page.rows.map((row) => row[at])),
      ),
    );
    if (held.length === 0) return page.rows;
    const hashes = new Map(held.filter((r) => r.live).map((r) => [keyString(page.key.map((k) => r[k])), r.row_hash]));
    return page.rows.filter((row) => hashes.get(keyString(keyAt.map((at) => row[at]))) !== row[hashAt]);
  }

  return {
    dialect: 'postgres',
    db,
    schema,
    columnTypes: POSTGRES_COLUMN_TYPES,
    maxParams: 65_535,
    async durableCommits() {},
    async durableTransaction(trx) {
      await sql`set local synchronous_commit = on`.execute(trx);
    },
    leaseHint: 'another worker holds it; it is released when that worker finishes, or taken over once it expires',
    toDb: toDbCommon,
    async upsertPage(trx, page) {
      const types = await typesOf(trx, page.table, page.columns);
      const rejected: RejectedRow[] = [];
      const fit = fitting(page, types, rejected);
      const total = { inserted: 0, updated: 0, rejected };
      // The look-up is safe without a savepoint (keys were checked above); an unchanged page ends here.
      const rows = await withoutUnchanged(trx, { ...page, rows: fit }, types);
      if (rows.length === 0) return total;
      // One savepoint per page with writes, never per row, and not released (the commit does): a failure
      // rolls back to it and the page is retried row by row, so one bad row cannot fail the page.
      await trx.executeQuery(CompiledQuery.raw('savepoint upsert_page'));
      try {
        for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
          const counts = await upsertChunk(trx, page, rows.slice(i, i + ROWS_PER_STATEMENT), types);
          total.inserted += counts.inserted;
          total.updated += counts.updated;
        }
      } catch (err) {
        await trx.executeQuery(CompiledQuery.raw('rollback to savepoint upsert_page'));
        if (!isRecordError(err)) throw err;
        total.inserted = total.updated = 0;
        for (const row of rows) {
          await trx.executeQuery(CompiledQuery.raw('savepoint upsert_row'));
          try {
            const counts = await upsertChunk(trx, page, [row], types);
            total.inserted += counts.inserted;
            total.updated += counts.updated;
          } catch (rowErr) {
            await trx.executeQuery(CompiledQuery.raw('rollback to savepoint upsert_row'));
            if (!isRecordError(rowErr)) throw rowErr;
            rejected.push({ index: page.rows.indexOf(row), reason: (rowErr as Error).message.slice(0, 300) });
          }
          await trx.executeQuery(CompiledQuery.raw('release savepoint upsert_row'));
        }
      }
      return total;
    },
    leaseNow: () => sql`statement_timestamp()`,
    leaseExpiry: (ttlMs) => sql`statement_timestamp() + make_interval(secs => ${ttlMs / 1000})`,
    async close() {
      await db.destroy();
    },
  };
}
