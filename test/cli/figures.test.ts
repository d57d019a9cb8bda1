// Counts as every command and page writes them: grouped by hand (src/figures.ts), as en-US groups them.
import { describe, expect, it } from 'vitest';
import { count, counted } from '../../src/figures.js';

describe('count', () => {
  it('groups digits in threes as en-US does, rounded to a whole number', () => {
    const numbers = [0, 7, 999, 1_000, 9_999.4, 109_226, 1_234_567.5, -1, -1_234, -987_654_321, 2 ** 53 - 1, 2 ** 60, Number.NaN, Infinity];
    for (const n of numbers) expect(count(n), String(n)).toBe(Math.round(n).toLocaleString('en-US'));
    expect(count(-0.2)).toBe('0');
  });

  it('agrees the noun with the number', () => {
    expect([counted(1, 'request'), counted(2_500, 'request'), counted(1.2, 'view')]).toEqual(['1 request', '2,500 requests', '1 view']);
  });
});
