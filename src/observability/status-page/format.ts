// How the status page writes numbers, times and spans: short, in UTC, the same everywhere on the page.

export { count } from '../../figures.js';

/** 2026-11-26 16:05 UTC */
export function utcTime(iso: string | null): string {
  return iso === null ? 'never' : `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

/** 40 s, 12 min, 5 h, 3 d */
export function span(ms: number): string {
  const s = ms / 1000;
  if (s < 90) return `${Math.round(s)} s`;
  if (s < 90 * 60) return `${Math.round(s / 60)} min`;
  if (s < 36 * 3600) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86_400)} d`;
}

/** 850 ms, 4.2 s, then as span(). */
export function duration(ms: number | null): string {
  if (ms === null) return 'running';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return span(ms);
}

/** "in 5 min" / "5 min ago" from `now`. */
export function relative(iso: string | null, now: string): string {
  if (iso === null) return 'never';
  const ms = Date.parse(iso) - Date.parse(now);
  return ms >= 0 ? `in ${span(ms)}` : `${span(-ms)} ago`;
}

/** Nov 12 */
export function shortDay(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}
