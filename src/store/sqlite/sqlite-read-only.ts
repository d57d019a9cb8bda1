// A read-only connection to an existing mirror file, for the commands that only read (status, export...):
// it never creates the file, its folder, or a schema, and it leaves no -wal or -shm behind. SQLite reads a
// WAL file only through a -shm beside it, and a read-only connection can neither remove the two at its close
// nor make the -shm in a folder it cannot write. So, when no -wal is there (no writer has the file open, the
// mirror was closed cleanly), the file is opened writable under `query_only`: SQL cannot write, and at close,
// the last connection removes the -wal and -shm it made. A file with a -wal (a writer at work) is opened
// read-only, beside that writer's files. In a folder it cannot write, with no -shm, it reads a copy in memory
// marked as a rollback-journal file instead.
import { existsSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';

const BUSY_TIMEOUT_MS = 10_000;
/** Bytes 18 and 19 of the header: the file format's write and read versions, 2 for WAL, 1 for legacy. */
const WAL_VERSION_BYTES = [18, 19];
const CANNOT_SHARE = new Set(['SQLITE_READONLY_DIRECTORY', 'SQLITE_CANTOPEN', 'SQLITE_READONLY_CANTINIT']);

export function openSqliteReadOnly(path: string, busyMs = BUSY_TIMEOUT_MS): Database.Database {
  if (!existsSync(`${path}-wal`)) {
    const tidy = openQueryOnly(path, busyMs);
    if (tidy) return configure(tidy, busyMs);
  }
  const sqlite = new Database(path, { readonly: true, fileMustExist: true, timeout: busyMs });
  try {
    sqlite.pragma('schema_version'); // the first read, where a WAL file needs its -shm
  } catch (err) {
    sqlite.close();
    if (!CANNOT_SHARE.has((err as { code?: string }).code ?? '')) throw err;
    const copy = readFileSync(path);
    for (const i of WAL_VERSION_BYTES) if (copy[i] === 2) copy[i] = 1;
    return configure(new Database(copy, { readonly: true }));
  }
  return configure(sqlite, busyMs);
}

/**
 * The file opened writable with SQL writes refused, or null where that fails (a file or folder this user
 * cannot write, or no database at all: the read-only open below then says why).
 */
function openQueryOnly(path: string, busyMs: number): Database.Database | null {
  const sqlite = new Database(path, { fileMustExist: true, timeout: busyMs });
  try {
    sqlite.pragma('query_only = ON');
    sqlite.pragma('schema_version'); // the first read makes the -shm: refused in a folder this user cannot write
    if (!sqlite.readonly) return sqlite;
  } catch {
    // read-only below
  }
  sqlite.close();
  return null;
}

function configure(sqlite: Database.Database, busyMs = BUSY_TIMEOUT_MS): Database.Database {
  sqlite.pragma(`busy_timeout = ${busyMs}`);
  sqlite.pragma('temp_store = MEMORY');
  return sqlite;
}
