// What stopped a store, in the words of its one-line error (storage-errors.ts); each dialect maps its
// driver's codes and messages to these (<dialect>-errors.ts).
export const DISK_FULL = 'the disk is full';
export const READ_ONLY = 'the database is read-only';
export const LOCKED = 'the database is locked by another process';
export const PERMISSION = 'permission denied';
export const CANNOT_OPEN = 'the database cannot be opened';
export const IO_ERROR = 'an I/O error';
export const OUT_OF_RESOURCES = 'the server is out of resources';
export const UNREACHABLE = 'the database server is unreachable';
/** A server that accepted the connection (or the statement) and then said nothing within its bound. */
export const SILENT = 'the database server does not answer';
export const STATEMENT_TIMEOUT = 'a statement ran past its bound (dbStatementTimeoutMs) or was cancelled';

/** Whether an error was caused by the values written (`record`: the driver's codes for that), or by building or binding them. */
export function recordErrorCheck(record: RegExp): (err: unknown) => boolean {
  return (err) => {
    if (err instanceof RangeError || err instanceof TypeError) return true;
    const code = (err as { code?: unknown } | null)?.code;
    return typeof code === 'string' && record.test(code);
  };
}
