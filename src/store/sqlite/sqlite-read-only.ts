// A read-only connection to an existing mirror file, for the commands that only read (status, export...):
// it never creates the file, its folder, or a schema. SQLite reads a WAL file only where it can write the
// -shm beside it (or the -shm is there already); in a folder it cannot write, with no -shm (the mirror was
// closed cleanly), it reads a copy in memory marked as a rollback-journal file instead.
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';

const BUSY_TIMEOUT_MS = 10_000;
/** Bytes 18 and 19 of the header: the file format's write and read versions, 2 for WAL, 1 for legacy. */
const WAL_VERSION_BYTES = [18, 19];
const CANNOT_SHARE = new Set(['SQLITE_READONLY_DIRECTORY', 'SQLITE_CANTOPEN', 'SQLITE_READONLY_CANTINIT']);

export function openSqliteReadOnly(path: string, busyMs = BUSY_TIMEOUT_MS): Database.Database {
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

function configure(sqlite: Database.Database, busyMs = BUSY_TIMEOUT_MS): Database.Database {
  sqlite.pragma(`busy_timeout = ${busyMs}`);
  sqlite.pragma('temp_store = MEMORY');
  return sqlite;
}
