// How fresh a stream is against its schedule: fresh while its age is within the longest gap between
// two runs that refresh it (and a grace for the run itself), late up to three gaps, stale beyond.
import type { Freshness } from './status-data.js';

const MIN_GRACE_MS = 5 * 60_000;

export function freshnessOf(ageMs: number | null, maxAgeMs: number | null): Freshness {
  if (ageMs === null) return 'never';
  if (maxAgeMs === null) return 'unscheduled';
  if (ageMs <= maxAgeMs + Math.max(MIN_GRACE_MS, maxAgeMs / 4)) return 'fresh';
  if (ageMs <= 3 * maxAgeMs) return 'late';
  return 'stale';
}
