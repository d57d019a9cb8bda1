// The pg pool behind the PostgreSQL adapter: every session runs in UTC with search_path set to the
// mirror's schema, and reads values the way SQLite does (int8 as number, json/jsonb as text,
// timestamptz as ISO `...Z`, a date as YYYY-MM-DD). Nothing waits on the server for ever: statements,
// connections and the pool's end are bounded (store-bounds.ts), and TCP keepalive runs both ways.
import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../database.js';
import type { StoreBounds } from '../store-bounds.js';
import { boundedPools, droppedSilent } from './prepared-pool.js';

const OID = { int8: 20, json: 114, jsonb: 3802, date: 1082, timestamptz: 1184 } as const;
const DUPLICATE_SCHEMA = ['42P06', '23505']; // two processes creating the schema at once
/** TCP keepalive, both ends: probes after 30 s idle, every 10 s, 3 unanswered and the peer is gone. */
const KEEPALIVE_IDLE_S = 30;
const KEEPALIVE_INTERVAL_S = 10;
const KEEPALIVE_COUNT = 3;
/**
 * Connections a process keeps at most (pg's default is 10). A run's streams start together, and each that
 * found every connection busy opened another: 10 backends for a sync of the /v1 lists, each started by the
 * server (about 10 ms of its CPU), each planning every statement again on cold catalog caches and
 * preparing its own copy of each page upsert. A write is a short transaction beside the fetches that feed
 * it, so four serve the streams as fast (measured: 0.85 -> 0.65 CPU-s of the server for two syncs of the
 * /v1 lists, no slower), and one waiting on a table's lock (`lock_timeout`) still leaves three. Not fewer:
 * the default rates (about 17 pages a second) against a server 30 ms away, a page's transaction a few
 * round trips, need three or four writing at once.
 */
const MAX_CONNECTIONS = 4;

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

/** The mirror's Kysely, and the one migrations run through (same connections, a longer statement bound). */
export interface PostgresKysely {
  db: Kysely<Database>;
  migrationDb: Kysely<Database>;
  /** Ends the pool; connections a silent server never lets close are dropped after `bounds.connectMs`. */
  close(): Promise<void>;
}

/** Kysely over a pool of such sessions, the schema created if missing (`readOnly`: sessions that cannot write, nothing created). */
export async function openPostgres(
  url: string,
  schema: string | undefined,
  bounds: StoreBounds,
  logger?: Logger,
  readOnly = false,
): Promise<PostgresKysely> {
  const { pool, dropAll } = boundedPool(url, schema, bounds, readOnly);
  // A client that loses its server (a restart, a failover, pg_terminate_backend) emits 'error': the pool
  // listens for idle clients only, and an unheard 'error' would end the process. Every client gets a
  // listener; the query it was running fails (a storage error the caller reports), and the pool drops it.
  pool.on('error', (err) => logger?.warn({ err: err.message }, 'postgres connection lost'));
  pool.on('connect', (client) =>
    client.on('error', (err) => {
      if (!droppedSilent.has(client)) logger?.warn({ err: err.message }, 'postgres connection lost');
    }),
  );
  const view = boundedPools(pool, { ...bounds, server: serverOf(url) });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: view({ statementMs: bounds.statementMs }) }) });
  // The pool is the first Kysely's to end: destroying this one leaves it alone.
  const migrationPool = { ...view({ statementMs: bounds.migrationMs }), end: async () => {} };
  const migrationDb = new Kysely<Database>({ dialect: new PostgresDialect({ pool: migrationPool }) });
  const close = async () => {
    await migrationDb.destroy();
    // Ending a connection waits for the server to close its side, which a paused server never does.
    const late = setTimeout(dropAll, bounds.connectMs);
    try {
      await db.destroy();
    } finally {
      clearTimeout(late);
    }
  };
  if (schema && !readOnly) await createSchema(db, schema, close);
  return { db, migrationDb, close };
}

/**
 * The pool: every session in UTC on the mirror's schema, its statements bounded (`statement_timeout`),
 * kept alive over TCP both ways (a peer gone without a word is noticed), each connection bounded by
 * `connectMs`; `dropAll` destroys every connection's socket.
 */
function boundedPool(url: string, schema: string | undefined, bounds: StoreBounds, readOnly: boolean) {
  // Mirror commits are asynchronous (like SQLite's WAL at synchronous=NORMAL): one transaction per
  // page would otherwise wait for a WAL flush each; durable transactions turn it back on.
  const options = [
    '-c TimeZone=UTC',
    '-c synchronous_commit=off',
    `-c statement_timeout=${bounds.statementMs}`,
    `-c tcp_keepalives_idle=${KEEPALIVE_IDLE_S} -c tcp_keepalives_interval=${KEEPALIVE_INTERVAL_S} -c tcp_keepalives_count=${KEEPALIVE_COUNT}`,
    schema ? `-c search_path=${schema}` : '',
    readOnly ? '-c default_transaction_read_only=on' : '',
  ]
    .filter(Boolean)
    .join(' ');
  const clients = new Set<pg.Client>();
  // The connection bound is the client's alone: pg's pool would also apply it to waiting for a free
  // connection, which a busy daemon legitimately does.
  class BoundedClient extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis: bounds.connectMs });
      clients.add(this);
      this.once('end', () => clients.delete(this));
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    options,
    max: MAX_CONNECTIONS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_IDLE_S * 1000,
    Client: BoundedClient,
    types: { getTypeParser } as unknown as pg.CustomTypesConfig,
  });
  const dropAll = () => {
    for (const client of clients) (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  };
  return { pool, dropAll };
}

/** host:port of the URL, for messages (never its user or password). */
function serverOf(url: string): string {
  try {
    const u = new URL(url);
    return u.hostname ? `${u.hostname}:${u.port || 5432}` : "the server's local socket";
  } catch {
    return 'the server';
  }
}

async function createSchema(db: Kysely<Database>, schema: string, close: () => Promise<void>): Promise<void> {
  try {
    await db.schema.createSchema(schema).ifNotExists().execute();
  } catch (err) {
    if (DUPLICATE_SCHEMA.includes((err as { code?: string }).code ?? '')) return;
    await close();
    throw err;
  }
}
