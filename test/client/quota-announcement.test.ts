// Which 429s announce a spent allowance (stop the family until it renews) and which are a burst to back
// off from (retried): the common X-RateLimit-* and Retry-After forms, and a body's own words.
import { describe, expect, it } from 'vitest';
import { announcedQuotaEnd } from '../../src/client/check-response.js';
import type { RawResponse } from '../../src/client/send-once.js';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const res = (headers: Record<string, string>): RawResponse => ({ status: 429, headers, body: Buffer.from('') });

describe('a 429 that announces a spent quota', () => {
  it('X-RateLimit-Remaining: 0 with a Unix X-RateLimit-Reset renews at that time', () => {
    const reset = String(Date.parse('2026-12-01T00:00:00Z') / 1000);
    expect(
      announcedQuotaEnd(res({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }), 30_000, null, NOW)?.until.toISOString(),
    ).toBe('2026-12-01T00:00:00.000Z');
  });

  it('a reset given in seconds from now, as some services do, counts from now', () => {
    expect(
      announcedQuotaEnd(res({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '3600' }), null, null, NOW)?.until.toISOString(),
    ).toBe('2026-11-23T13:00:00.000Z');
  });

  it('a Retry-After longer than any backoff is an allowance, not a burst', () => {
    expect(announcedQuotaEnd(res({}), 6 * 3_600_000, null, NOW)?.until.toISOString()).toBe('2026-11-23T18:00:00.000Z');
  });

  it("the body's words alone are enough; without a time it waits an hour", () => {
    expect(announcedQuotaEnd(res({}), null, 'Monthly request quota exceeded', NOW)?.until.toISOString()).toBe('2026-11-23T13:00:00.000Z');
  });

  it('a short 429 (a burst, remaining requests, "rate limit") is retried as before', () => {
    expect(announcedQuotaEnd(res({ 'x-ratelimit-remaining': '12' }), 2_000, 'Too many requests: rate limit exceeded', NOW)).toBeNull();
    expect(announcedQuotaEnd(res({}), 1_000, null, NOW)).toBeNull();
  });

  it('an absurd or unreadable renewal is held a month at most and says what the service sent, never "Invalid time value"', () => {
    const month = '2026-12-24T12:00:00.000Z';
    const cases: [Record<string, string>, number | null][] = [
      [{ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1e300' }, null],
      [{ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '99999999999999' }, null],
      [{ 'retry-after': '1000000000000' }, 1e15],
      [{ 'x-ratelimit-remaining': '0', 'retry-after': '1e20' }, null], // unreadable: an hour, as with none
    ];
    const got = cases.map(([h, ms]) => announcedQuotaEnd(res(h), ms, null, NOW));
    expect(got.map((g) => g?.until.toISOString())).toEqual([month, month, month, '2026-11-23T13:00:00.000Z']);
    expect(got.map((g) => g?.clamped)).toEqual([
      'X-RateLimit-Reset: 1e300',
      'X-RateLimit-Reset: 99999999999999',
      'Retry-After: 1000000000000',
      null,
    ]);
  });
});
