// A /v1 time in Unix seconds is written as `new Date(seconds * 1000).toISOString()` writes it, whichever way
// the mapping computes it (whole seconds through a cached day, others through a Date).
import { describe, expect, it } from 'vitest';
import { unixTimeOf } from '../../src/catalog/mapping.js';
import { toRow } from '../../src/sync/row-mapping.js';

const columns = { at: unixTimeOf('t') };
const mapped = (t: unknown) => toRow({ t }, columns).at;
const byDate = (seconds: number) => {
  const time = new Date(seconds * 1000);
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
};

describe('a Unix-second time', () => {
  it('is the ISO text a Date writes, at the edges of a day, a leap day, a year and the four-digit years', () => {
    const edges = [0, 1, 59, 60, 3599, 3600, 86_399, 86_400, 951_782_399, 951_782_400, 951_868_800, 1_786_792_470];
    const last = [253_402_300_799, 253_402_300_800, 253_402_300_801];
    for (const s of [...edges, ...last]) expect(mapped(s), String(s)).toBe(byDate(s));
    expect(mapped(86_399)).toBe('1970-01-01T23:59:59.000Z');
  });

  it('is the ISO text a Date writes for a spread of whole seconds over the years a service serves', () => {
    // A fixed stride rather than random draws: the same values every run.
    for (let s = 0; s < 4_200_000_000; s += 9_999_991) expect(mapped(s), String(s)).toBe(byDate(s));
  });

  it('keeps milliseconds, times before 1970, and what is not a time as before', () => {
    for (const s of [1.5, 1_786_792_470.25, -1, -86_401, 8.64e12, 1e300]) expect(mapped(s), String(s)).toBe(byDate(s));
    expect(mapped(Number.NaN)).toBeNull();
    expect(mapped('2025-05-31T18:56:10Z')).toBe('2025-05-31T18:56:10.000Z');
    expect(mapped('not a time')).toBe('not a time');
    expect(mapped(null)).toBeNull();
  });
});
