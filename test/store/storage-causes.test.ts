// The store's errors in words. A read-only folder is its own cause: SQLite keeps the write-ahead log's files
// beside the database, so even `status` and `export` cannot read there, and "the database is read-only"
// sent users to a file whose permissions were fine. (Root ignores permissions, so the folder itself is
// not made read-only here: the driver's code for it, SQLITE_READONLY_DIRECTORY, is.)
import { describe, expect, it } from 'vitest';
import { describeStoreError, storageCause } from '../../src/store/storage-errors.js';

const driverError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('storage causes', () => {
  it('names a read-only folder, and what to do, apart from a read-only database', () => {
    const folder = driverError('SQLITE_READONLY_DIRECTORY', 'attempt to write a readonly database');
    expect(describeStoreError(folder, '/srv/ro/mirror.db')).toBe(
      "the database's folder is read-only (SQLite keeps its write-ahead log, <file>-wal and -shm, beside the file: " +
        'make the folder writable, or copy the file into one that is): /srv/ro/mirror.db (attempt to write a readonly database)',
    );
    expect(storageCause(driverError('SQLITE_READONLY', 'attempt to write a readonly database'))).toBe('the database is read-only');
  });

  it('reads the cause through a wrapping error', () => {
    const wrapped = new Error('migration failed', { cause: driverError('SQLITE_FULL', 'database or disk is full') });
    expect(storageCause(wrapped)).toBe('the disk is full');
    expect(storageCause(new Error('a bug'))).toBeNull();
  });
});
