// better-sqlite3's errors read: its SQLITE_* codes, and the one failure it reports by message alone.
import { CANNOT_OPEN, DISK_FULL, IO_ERROR, LOCKED, PERMISSION, READ_ONLY, recordErrorCheck } from '../storage-causes.js';
import type { DialectErrors } from '../store-dialect.js';

export const SQLITE_ERRORS: DialectErrors = {
  record: /^SQLITE_(CONSTRAINT_(NOTNULL|CHECK|PRIMARYKEY|UNIQUE|FOREIGNKEY|DATATYPE)|TOOBIG|MISMATCH|RANGE)$/,
  codes: [
    [/^SQLITE_FULL$/, DISK_FULL],
    // Reading needs the write-ahead log's index beside the file, so a read-only folder stops reads too.
    [
      /^SQLITE_READONLY_DIRECTORY$/,
      "the database's folder is read-only (SQLite keeps its write-ahead log, <file>-wal and -shm, beside the file: make the folder writable, or copy the file into one that is)",
    ],
    [/^SQLITE_READONLY.*$/, READ_ONLY],
    [/^(SQLITE_BUSY.*|SQLITE_LOCKED.*)$/, LOCKED],
    [/^(SQLITE_PERM|SQLITE_AUTH)$/, PERMISSION],
    [/^SQLITE_CANTOPEN.*$/, CANNOT_OPEN],
    [/^SQLITE_IOERR.*$/, IO_ERROR],
  ],
  // A full disk during rollback comes as a plain message with no code.
  messages: [[/database or disk is full/i, DISK_FULL]],
};

/** Whether the values written made the write fail: the upserts' and the writer thread's check (no dialect list loaded). */
export const isSqliteRecordError = recordErrorCheck(SQLITE_ERRORS.record);
