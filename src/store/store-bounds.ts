// How long the store waits on its database before it gives up: nothing a user starts may wait for ever on
// a server that stopped answering (paused, partitioned) or on another process's lock. Read from the
// configuration at the edge (docs/configuration.md) and handed to the dialect that opens the store.
export interface StoreBounds {
  /**
   * PostgreSQL: the server's `statement_timeout` for the mirror's sessions. A server that does not answer
   * at all cannot enforce its own bound, so the client gives up `silentGraceMs` after it.
   */
  statementMs: number;
  /**
   * PostgreSQL: the same bound for migrations and the repeatable objects (views, triggers, comments), which
   * may rewrite large tables or wait for another process's migrations.
   */
  migrationMs: number;
  /** PostgreSQL: a new connection (TCP, TLS, authentication) that is not ready by then fails. */
  connectMs: number;
  /**
   * How long a write waits for another process's lock before failing as locked: SQLite's busy time-out on
   * the file, PostgreSQL's `lock_timeout` on a table (migrations there are not bounded by it).
   */
  busyMs: number;
}

/**
 * Two minutes for a statement: a page's upsert takes milliseconds and the slowest read of a real-size
 * mirror (an export's view, `status`) seconds; an hour for migrations; 10 s to connect, as for a lock.
 */
export const DEFAULT_STORE_BOUNDS: Readonly<StoreBounds> = Object.freeze({
  statementMs: 120_000,
  migrationMs: 3_600_000,
  connectMs: 10_000,
  busyMs: 10_000,
});

/** The most a client waits past the server's own bound before calling the server silent. */
const SILENT_GRACE_MS = 10_000;

/**
 * What a client waits past a statement's bound (`statementMs`, > 0) before calling the server silent: 10 s,
 * or the bound itself when it is shorter. A user who bounds a statement at 1 s wants a server that has gone
 * silent told within seconds, not 11; a server answers its own time-out at once, so twice the bound is
 * still room for a slow network.
 */
export function silentGraceMs(statementMs: number): number {
  return Math.min(SILENT_GRACE_MS, statementMs);
}
