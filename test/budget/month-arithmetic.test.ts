// The calendar the quotas count in, walked over every day of three years at both ends of each day (month
// ends, the year's end, 29 February 2028, the 00:00 boundary to the millisecond): the day a request is
// counted on, the first day of its month, and the renewal every message says are always the UTC ones.
import { describe, expect, it } from 'vitest';
import { monthStartDay, renewsAt, utcDay } from '../../src/budget/quotas.js';

const DAY = 24 * 60 * 60_000;

/** Every day from 2026-01-01 to 2028-12-31, at 00:00:00.000, 12:00 and 23:59:59.999 UTC. */
function walkedMoments(): Date[] {
  const moments: Date[] = [];
  for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2029, 0, 1); t += DAY) {
    moments.push(new Date(t), new Date(t + DAY / 2), new Date(t + DAY - 1));
  }
  return moments;
}

describe('the quotas calendar', () => {
  const moments = walkedMoments();

  it('walks more than three thousand moments', () => {
    expect(moments.length).toBe(3 * (365 + 365 + 366));
  });

  it('renews a month at 00:00 UTC of the first of the next month, never before, never a month and a day after', () => {
    for (const at of moments) {
      const renewal = renewsAt('month', at);
      const y = at.getUTCFullYear();
      const m = at.getUTCMonth();
      expect(renewal.toISOString(), at.toISOString()).toBe(new Date(Date.UTC(m === 11 ? y + 1 : y, (m + 1) % 12, 1)).toISOString());
      expect(renewal.getTime()).toBeGreaterThan(at.getTime());
      expect(renewal.getTime() - at.getTime()).toBeLessThanOrEqual(31 * DAY);
      // The moment of renewal belongs to the next month already, and the millisecond before to this one.
      expect(monthStartDay(renewal)).toBe(utcDay(renewal));
      expect(monthStartDay(new Date(renewal.getTime() - 1))).toBe(monthStartDay(at));
    }
  });

  it('renews a day at the next 00:00 UTC, and counts the moment in its own day and month', () => {
    for (const at of moments) {
      const renewal = renewsAt('day', at);
      expect(renewal.getTime() - Date.parse(`${utcDay(at)}T00:00:00Z`)).toBe(DAY);
      expect(utcDay(new Date(renewal.getTime() - 1))).toBe(utcDay(at));
      expect(monthStartDay(at) <= utcDay(at)).toBe(true);
      expect(utcDay(at) < utcDay(renewsAt('month', at))).toBe(true);
      expect(utcDay(at).slice(0, 7)).toBe(monthStartDay(at).slice(0, 7));
    }
  });

  it('knows 29 February 2028 and the year ends', () => {
    expect(utcDay(renewsAt('day', new Date('2028-02-28T23:59:59.999Z')))).toBe('2028-02-29');
    expect(renewsAt('month', new Date('2028-02-29T00:00:00.000Z')).toISOString()).toBe('2028-03-01T00:00:00.000Z');
    expect(utcDay(renewsAt('day', new Date('2027-02-28T12:00:00Z')))).toBe('2027-03-01');
    expect(renewsAt('month', new Date('2026-12-31T23:59:59.999Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(monthStartDay(new Date('2027-01-01T00:00:00.000Z'))).toBe('2027-01-01');
    expect(monthStartDay(new Date('2026-12-31T23:59:59.999Z'))).toBe('2026-12-01');
  });
});
