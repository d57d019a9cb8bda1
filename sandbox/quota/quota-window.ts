// Calendar windows on Unix seconds (UTC): the minute, the day, the month a moment falls in. A
// quota's allowance renews when the sandbox clock crosses into the next window.
import { DAY } from '../core/dates.js';
import type { Period } from './quota-spec.js';

export interface Window {
  /** Unix seconds, inclusive. */
  start: number;
  /** Unix seconds of the renewal (the next window's start). */
  end: number;
}

export function windowOf(period: Period, t: number): Window {
  if (period === 'minute') {
    const start = Math.floor(t / 60) * 60;
    return { start, end: start + 60 };
  }
  if (period === 'day') {
    const start = Math.floor(t / DAY) * DAY;
    return { start, end: start + DAY };
  }
  const d = new Date(t * 1000);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  return { start: Date.UTC(y, m, 1) / 1000, end: Date.UTC(y, m + 1, 1) / 1000 };
}
