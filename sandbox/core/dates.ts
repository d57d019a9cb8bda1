// Calendar helpers on Unix seconds (UTC), and the strict `YYYY-MM-DD` format used by date parameters.
export const DAY = 86_400;

export function isoDate(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 10);
}

export function dayNumber(seconds: number): number {
  return Math.floor(seconds / DAY);
}

/** Unix seconds at the start of a strict `YYYY-MM-DD` date, or null for anything else. */
export function parseIsoDate(s: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return null;
  const ms = Date.parse(`${s}T00:00:00Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== s) return null;
  return ms / 1000;
}
