// The store's surface for a writer thread (the receiver's SQLite writer): a connection of its own, and how to
// tell a record the store refuses from a store that cannot write. Nothing else of the store loads in the thread.
export { openSqliteRowWriter, type SqliteRowWriter } from './sqlite/sqlite-row-writer.js';
export { isRecordError } from './storage-errors.js';
