// A better-sqlite3 connection to a mirror file, configured the same wherever one is opened: the
// store's own, the receiver's writer thread, the benchmarks' SQLite floor.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

const BUSY_TIMEOUT_MS = 10_000;
const PAGE_SIZE = 16_384;
const WAL_CHECKPOINT_BYTES = 64 * 1024 * 1024;

export interface SqliteOptions {
  /**
   * `NORMAL` (default) survives a crash of the process but may lose the last commits on power loss;
   * `FULL` syncs the log at each commit, for connections whose every commit acknowledges something.
   */
  synchronous?: 'NORMAL' | 'FULL';
  /** Open an existing file only (a second connection to the store's file), never create one. */
  fileMustExist?: boolean;
  /** How long a statement waits for another connection's lock (default 10 s, `dbBusyTimeoutMs`). */
  busyMs?: number;
}

/** Opens a WAL connection, creating the file and its folder unless `fileMustExist`. */
export function openSqlite(path: string, opts: SqliteOptions = {}): Database.Database {
  const fileMustExist = opts.fileMustExist ?? false;
  if (path !== ':memory:' && !fileMustExist) mkdirSync(dirname(path), { recursive: true });
  const busyMs = opts.busyMs ?? BUSY_TIMEOUT_MS;
  const sqlite = new Database(path, { timeout: busyMs, fileMustExist });
  // 16 KiB pages for a new file (an existing one keeps its size): mirrored rows are 0.5–4 KB of typed
  // columns plus raw JSON, which overflow 4 KiB pages; a first sync inserts 1.6× faster (measured).
  sqlite.pragma(`page_size = ${PAGE_SIZE}`);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(`synchronous = ${opts.synchronous ?? 'NORMAL'}`);
  sqlite.pragma(`busy_timeout = ${busyMs}`);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('temp_store = MEMORY');
  sqlite.pragma('cache_size = -16384'); // 16 MiB: the mirror's hot set is the page being written
  // Checkpoint the WAL every 64 MiB rather than every 1,000 pages: each checkpoint is an fsync, and a first
  // sync or a burst of webhooks would otherwise pay one every few pages. The WAL shrinks back after.
  const pageSize = sqlite.pragma('page_size', { simple: true }) as number;
  sqlite.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_BYTES / pageSize}`);
  sqlite.pragma(`journal_size_limit = ${WAL_CHECKPOINT_BYTES}`);
  return sqlite;
}
