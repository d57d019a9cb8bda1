// Tests that can be skipped without anyone noticing are worse than none: no `.only`, no skip without a reason
// on its line, and no assertion guarded by a lone `if` (a check that silently does not run when the data
// changes). Either branch of an if/else may assert; a one-armed if must become a filter whose size is checked.
// No `vi.setConfig` either: once workers run file after file it reaches no test (timeouts.ts says what does).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const TEST_DIR = fileURLToPath(new URL('..', import.meta.url));

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );
}

/** `file:line` of each line of the test files that `bad` finds wanting (given the line and the next). */
function offending(bad: (line: string, next: string) => boolean): string[] {
  return testFiles(TEST_DIR).flatMap((file) => {
    const lines = readFileSync(file, 'utf8').split('\n');
    return lines.flatMap((line, i) => (bad(line, lines[i + 1] ?? '') ? [`${relative(TEST_DIR, file)}:${i + 1}`] : []));
  });
}

describe('honest tests', () => {
  it('assert nothing behind a one-armed if', () => {
    const guarded = offending((line, next) => /^\s*if \(.*\) expect\(/.test(line) && !/^\s*else\b/.test(next));
    expect(guarded).toEqual([]);
  });

  it('use no .only, and skip only with a reason on the line', () => {
    expect(offending((line) => /\b(it|describe|test)\.only\(/.test(line))).toEqual([]);
    const skips = offending((line) => /\b(it|describe|test)\.(skip|todo)\(/.test(line) || /\.(skipIf|runIf)\(/.test(line));
    const unexplained = skips.filter((where) => {
      const [file, line] = where.split(':');
      const text = readFileSync(join(TEST_DIR, file!), 'utf8').split('\n');
      const n = Number(line) - 1;
      return !/\/\/ ?\S/.test(`${text[n - 1]}${text[n]}`);
    });
    expect(unexplained).toEqual([]);
  });

  it('set no time-out with vi.setConfig, which does not reach the tests of a file that shares its worker', () => {
    expect(offending((line) => /\bvi\.setConfig\(/.test(line))).toEqual([]);
  });
});
