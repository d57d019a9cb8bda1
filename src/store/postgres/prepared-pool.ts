// The pg pool as Kysely sees it, with two things pg does not do by itself:
// - Kysely sends every query unnamed, so PostgreSQL parses and plans it again each time. The upsert
//   sends the same text for every page of a table: texts marked PREPARED get a stable name, and pg
//   prepares them once per connection (measured 1.05-1.45x faster on pages of 100).
// - A statement has a bound (`statement_timeout`, the session's); a server that does not answer at all
//   (paused, partitioned) cannot enforce it, so the client gives up a grace later (silentGraceMs), drops the
//   connection, and fails every later statement of that checkout (Kysely's rollback included) with the
//   same one-line error. Migrations check out their connections through a second view of the same pool
//   with a longer bound (`mode`), the session's setting changed only when a connection switches.
import { createHash } from 'node:crypto';
import type { PostgresPool } from 'kysely';
import type pg from 'pg';
import { silentGraceMs } from '../store-bounds.js';
import { CONNECT_TIMEOUT, SilentServerError } from './postgres-errors.js';

export const PREPARED = '/* prepared */ ';

/** The connections dropped here for a silent server: their 'error' is this module's doing, already reported. */
export const droppedSilent = new WeakSet<object>();

/** A checkout's statement bound, in ms (0: none). */
export interface SessionMode {
  statementMs: number;
}

interface Session {
  /** The session's statement_timeout as last set (the connection's options set the first). */
  statementMs: number;
  /** The bound of the current checkout. */
  mode: SessionMode;
  /** Set once a statement went unanswered: the connection is gone, every later statement fails so. */
  silent?: SilentServerError;
}

type Query = (config: pg.QueryConfig) => Promise<pg.QueryResult>;

/** Views of one pg pool for Kysely, each checking out connections with its own statement bound. */
export function boundedPools(
  pool: pg.Pool,
  bounds: { statementMs: number; connectMs: number; server: string },
): (mode: SessionMode) => PostgresPool {
  const sessions = new WeakMap<pg.PoolClient, Session>();
  const nameOf = statementNames();
  return (mode) => ({
    async connect() {
      const client = await pool.connect().catch((err: unknown) => {
        if (!CONNECT_TIMEOUT.test((err as Error | null)?.message ?? '')) throw err;
        throw new SilentServerError(
          `no answer from ${bounds.server} within ${bounds.connectMs / 1000} s of connecting (dbConnectTimeoutMs)`,
        );
      });
      let session = sessions.get(client);
      if (!session) {
        session = { statementMs: bounds.statementMs, mode };
        sessions.set(client, session);
        patchQuery(client, session, nameOf, bounds.server);
      }
      session.mode = mode;
      if (session.statementMs !== mode.statementMs) {
        try {
          await client.query(`set statement_timeout = ${mode.statementMs}`);
        } catch (err) {
          client.release(err as Error); // dropped, never lent again
          throw err;
        }
        session.statementMs = mode.statementMs;
      }
      return client;
    },
    end: () => pool.end(),
  });
}

function patchQuery(client: pg.PoolClient, session: Session, nameOf: (text: string) => string, server: string): void {
  const query = client.query.bind(client) as unknown as Query;
  client.query = ((text: unknown, values?: unknown[]) => {
    if (session.silent) return Promise.reject(session.silent);
    if (typeof text !== 'string') return query(text as pg.QueryConfig); // a cursor or a config: as given
    const graceMs = silentGraceMs(session.mode.statementMs);
    const boundMs = session.mode.statementMs > 0 ? session.mode.statementMs + graceMs : 0;
    const config = { text, values, query_timeout: boundMs || undefined, ...(text.startsWith(PREPARED) ? { name: nameOf(text) } : {}) };
    return (query(config) as Promise<pg.QueryResult>).catch((err: unknown) => {
      if ((err as Error | null)?.message !== 'Query read timeout') throw err;
      session.silent = new SilentServerError(
        `no answer from ${server} within ${boundMs / 1000} s of a statement (its bound, ${session.mode.statementMs / 1000} s, and ${graceMs / 1000} s more): ` +
          'the server may be paused, overloaded or cut off by the network',
      );
      // The statement may still be running on a server that will never say: the connection is dropped
      // (the server rolls its transaction back), and the pool never lends it again.
      droppedSilent.add(client);
      (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
      throw session.silent;
    });
  }) as typeof client.query;
}

function statementNames(): (text: string) => string {
  const names = new Map<string, string>();
  return (text) => {
    let name = names.get(text);
    if (!name) {
      name = `ds_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
      names.set(text, name);
    }
    return name;
  };
}
