// The one reading of a time a user or the service writes (RFC 3339, YYYY-MM-DD or Unix seconds), and of
// what a store returns for a date column (text, a number, or a Date on PostgreSQL).

/** The time as epoch milliseconds, or null when it is empty or not a time. */
export function boundMillis(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'number' || /^-?\d+$/.test(String(value))) return Number(value) * 1000;
  const ms = Date.parse(String(value));
  return Number.isNaN(ms) ? null : ms;
}
