// Small named pieces: no function in src/ may grow past the limit (a long one is split, not excused).
import { describe, expect, it } from 'vitest';
import { longestFunctions } from './function-lengths.js';

const LIMIT = 60;

describe('function length in src/', () => {
  it(`has no function of ${LIMIT} lines or more`, () => {
    const measured = longestFunctions('src');
    expect(measured.length).toBeGreaterThan(100); // the walk found the code it is meant to measure
    const tooLong = measured.filter((f) => f.lines >= LIMIT).map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`);
    expect(tooLong).toEqual([]);
    // Parsing every file of src/ takes seconds; beside a busy suite it passed 20 s (a bound, not a measure).
  }, 120_000);
});
