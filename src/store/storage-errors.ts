// Telling a record the store refuses (its data: type, NUL, size, a constraint) from a store that cannot
// write at all (disk full, read-only, locked, no permission, gone): the first is quarantined or refused
// alone, the second stops the writes and is reported in one line that names the cause. The operating
// system's codes are read here; each dialect reads its driver's (<dialect>-errors.ts).
import { DIALECTS } from './dialects.js';
import { RetriableError } from '../errors.js';
import {
  CANNOT_OPEN,
  DISK_FULL,
  IO_ERROR,
  LOCKED,
  PERMISSION,
  READ_ONLY,
  recordErrorCheck,
  SILENT,
  UNREACHABLE,
} from './storage-causes.js';

const SYSTEM_CAUSES: readonly (readonly [RegExp, string])[] = [
  [/^(ENOSPC|EDQUOT)$/, DISK_FULL],
  [/^EROFS$/, READ_ONLY],
  [/^(EACCES|EPERM)$/, PERMISSION],
  [/^(ENOENT|ENOTDIR)$/, CANNOT_OPEN],
  [/^EIO$/, IO_ERROR],
  [/^(ECONNREFUSED|ECONNRESET|ETIMEDOUT)$/, UNREACHABLE],
];

const CODE_CAUSES = [...DIALECTS.flatMap((d) => d.errors.codes), ...SYSTEM_CAUSES];
const MESSAGE_CAUSES = DIALECTS.flatMap((d) => d.errors.messages);

/** Whether the values written made the write fail, on any store: the same values fail again. */
export const isRecordError = recordErrorCheck(new RegExp(DIALECTS.map((d) => `(?:${d.errors.record.source})`).join('|')));

/** One line for an error of the store at `location`: the cause in words first when it is the store's, then what the driver said. */
export function describeStoreError(err: unknown, location: string): string {
  const message = err instanceof Error ? err.message : String(err);
  const cause = storageCause(err);
  // An open's or a migration's line already names the cause and the database.
  return cause && !message.includes(cause) ? `${cause}: ${location} (${message})` : message;
}

/** What stopped the store, in words, or null when the error is not the store's (a bug, bad data). */
export function storageCause(err: unknown): string | null {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    for (const [pattern, cause] of CODE_CAUSES) if (pattern.test(code)) return cause;
  }
  const message = err instanceof Error ? err.message : '';
  for (const [pattern, cause] of MESSAGE_CAUSES) if (pattern.test(message)) return cause;
  return null;
}

/**
 * Whether a later attempt may well succeed without anyone fixing anything: the server refused, did not
 * answer, or the file is locked (also when a migration's or an open's error says so in its line).
 */
export function mayAnswerLater(err: unknown): boolean {
  if (err instanceof RetriableError) return true;
  const waits = [UNREACHABLE, SILENT, LOCKED];
  const cause = storageCause(err);
  if (cause !== null) return waits.includes(cause);
  const message = err instanceof Error ? err.message : '';
  return waits.some((w) => message.includes(w));
}

/** Whether the connection went away under the statement (a restart, a failover): a new connection may well succeed. */
export function connectionLost(err: unknown): boolean {
  return storageCause(err) === UNREACHABLE;
}
