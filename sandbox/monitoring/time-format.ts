// Monitoring timestamps: RFC 3339 in UTC, whole seconds. Time-window bounds in three input forms.

export const rfc3339 = (unixSeconds: number): string => new Date(unixSeconds * 1000).toISOString().replace('.000Z', 'Z');

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const EPOCH = /^-?\d+$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * Unix seconds of a time-window bound given as RFC 3339, `YYYY-MM-DD` or epoch seconds; NaN when
 * unreadable. A date-only upper bound covers its whole day (up to 23:59:59 UTC).
 */
export function parseTimeBound(value: string, bound: 'start' | 'end'): number {
  const v = value.trim();
  if (EPOCH.test(v)) return Number(v);
  if (DATE_ONLY.test(v)) {
    const ms = Date.parse(`${v}T00:00:00Z`);
    return Number.isNaN(ms) ? NaN : ms / 1000 + (bound === 'end' ? 86_399 : 0);
  }
  if (RFC3339.test(v)) {
    const ms = Date.parse(v.replace(' ', 'T'));
    return Number.isNaN(ms) ? NaN : Math.floor(ms / 1000);
  }
  return NaN;
}
