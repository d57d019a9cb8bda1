// pg's errors read: PostgreSQL's SQLSTATE codes, and the connection losses pg reports by message alone.
import {
  CANNOT_OPEN,
  DISK_FULL,
  IO_ERROR,
  LOCKED,
  OUT_OF_RESOURCES,
  PERMISSION,
  READ_ONLY,
  recordErrorCheck,
  SILENT,
  STATEMENT_TIMEOUT,
  UNREACHABLE,
} from '../storage-causes.js';
import type { DialectErrors } from '../store-dialect.js';

/** The code of SilentServerError: a server that did not answer within its bound (client side). */
export const SILENT_CODE = 'DS_DB_SILENT';
/** pg's connection bound (connectionTimeoutMillis, the client's or the pool's), reported by message alone. */
export const CONNECT_TIMEOUT = /timeout expired|due to connection timeout|timeout exceeded when trying to connect/i;

export const POSTGRES_ERRORS: DialectErrors = {
  // SQLSTATE classes 22 (data exception), 23 (integrity constraint), 54 (program limit: too deep, too large).
  record: /^(22|23|54)[0-9A-Z]{3}$/,
  codes: [
    [/^53100$/, DISK_FULL],
    [/^25006$/, READ_ONLY],
    [/^(55P03|40P01)$/, LOCKED],
    [/^(42501|28000|28P01)$/, PERMISSION],
    [/^3D000$/, CANNOT_OPEN],
    [/^58030$/, IO_ERROR],
    [/^(53000|53200)$/, OUT_OF_RESOURCES],
    [/^(57P0[1-3]|08[0-9A-Z]{3})$/, UNREACHABLE],
    [/^57014$/, STATEMENT_TIMEOUT],
    [new RegExp(`^${SILENT_CODE}$`), SILENT],
  ],
  messages: [
    [CONNECT_TIMEOUT, SILENT],
    // A connection cut under a query (a restart, pg_terminate_backend).
    [/Connection terminated|connection error|terminating connection|Client was closed/i, UNREACHABLE],
  ],
};

/** A statement or a connection the server left unanswered past its bound: the connection was dropped. */
export class SilentServerError extends Error {
  readonly code = SILENT_CODE;
}

/** Whether the values written made the write fail (the upserts' check). */
export const isPostgresRecordError = recordErrorCheck(POSTGRES_ERRORS.record);
