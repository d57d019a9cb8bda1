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

/** How far past now a record's date may lie and still move a window (clocks and time zones differ a little). */
export const FUTURE_TOLERANCE_MS = 2 * 86_400_000;

/**
 * The latest time a high-water mark may take: now plus the tolerance. A record dated beyond it (a
 * `9999-12-31`) is stored as served, but moving a window past it would skip every real record after.
 */
export function presentLimit(now: number = Date.now()): Date {
  return new Date(now + FUTURE_TOLERANCE_MS);
}

/** A high-water mark as far as the present allows (null stays null). */
export function withinPresent(ms: number | null, now: number = Date.now()): number | null {
  return ms === null ? null : Math.min(ms, presentLimit(now).getTime());
}

/** Now for the service: our clock, or the service's (its Date header) when that runs ahead, as a test sandbox's may. */
export function servicePresent(client: { stats: { clockOffsetMs?: number | null } }, now: number = Date.now()): number {
  return now + Math.max(0, client.stats.clockOffsetMs ?? 0);
}
