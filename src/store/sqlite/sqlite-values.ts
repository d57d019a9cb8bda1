// Values as SQLite stores them: booleans as 0/1, objects as JSON text, Dates as ISO text. The same
// conversion serves the store's writes, `copy` into SQLite and the receiver's writer thread.
import { toDbCommon } from '../store-adapter.js';

export function toSqliteValue(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  return toDbCommon(value);
}
