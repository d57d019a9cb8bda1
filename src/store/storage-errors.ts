// Telling a record the store refuses (its data: type, NUL, size, a constraint) from a store that cannot
// write at all (disk full, read-only, locked, no permission, gone): the first is quarantined or refused
// alone, the second stops the writes and is reported in one line that names the cause.

/** Codes of errors caused by the values written, not by the store: retrying the same values fails again. */
const SQLITE_RECORD = /^SQLITE_(CONSTRAINT_(NOTNULL|CHECK|PRIMARYKEY|UNIQUE|FOREIGNKEY|DATATYPE)|TOOBIG|MISMATCH|RANGE)$/;
// PostgreSQL SQLSTATE classes 22 (data exception), 23 (integrity constraint), 54 (program limit: too deep, too large).
const PG_RECORD = /^(22|23|54)[0-9A-Z]{3}$/;

export function isRecordError(err: unknown): boolean {
  if (err instanceof RangeError || err instanceof TypeError) return true; // building or binding the values
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (SQLITE_RECORD.test(code) || PG_RECORD.test(code));
}

const UNREACHABLE = 'the database server is unreachable';

const CAUSES: [RegExp, string][] = [
  [/^(SQLITE_FULL|ENOSPC|EDQUOT|53100)$/, 'the disk is full'],
  // Reading needs the write-ahead log's index beside the file, so a read-only folder stops reads too.
  [
    /^SQLITE_READONLY_DIRECTORY$/,
    "the database's folder is read-only (SQLite keeps its write-ahead log, <file>-wal and -shm, beside the file: make the folder writable, or copy the file into one that is)",
  ],
  [/^(SQLITE_READONLY.*|EROFS|25006)$/, 'the database is read-only'],
  [/^(SQLITE_BUSY.*|SQLITE_LOCKED.*|55P03|40P01)$/, 'the database is locked by another process'],
  [/^(EACCES|EPERM|SQLITE_PERM|SQLITE_AUTH|42501|28000|28P01)$/, 'permission denied'],
  [/^(SQLITE_CANTOPEN.*|ENOENT|ENOTDIR|3D000)$/, 'the database cannot be opened'],
  [/^(SQLITE_IOERR.*|EIO|58030)$/, 'an I/O error'],
  [/^(53000|53200)$/, 'the server is out of resources'],
  [/^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|57P0[1-3]|08[0-9A-Z]{3})$/, UNREACHABLE],
];

/** One line for an error of the store at `location`: the cause in words first when it is the store's, then what the driver said. */
export function describeStoreError(err: unknown, location: string): string {
  const message = err instanceof Error ? err.message : String(err);
  const cause = storageCause(err);
  return cause ? `${cause}: ${location} (${message})` : message;
}

/** What stopped the store, in words, or null when the error is not the store's (a bug, bad data). */
export function storageCause(err: unknown): string | null {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    for (const [pattern, cause] of CAUSES) if (pattern.test(code)) return cause;
  }
  // better-sqlite3 reports a full disk during rollback as a plain message with no code.
  const message = err instanceof Error ? err.message : '';
  if (/database or disk is full/i.test(message)) return 'the disk is full';
  // pg reports a connection cut under a query (a restart, pg_terminate_backend) by message alone.
  if (/Connection terminated|connection error|terminating connection|Client was closed/i.test(message)) return UNREACHABLE;
  return null;
}

/** Whether the connection went away under the statement (a restart, a failover): a new connection may well succeed. */
export function connectionLost(err: unknown): boolean {
  return storageCause(err) === UNREACHABLE;
}
