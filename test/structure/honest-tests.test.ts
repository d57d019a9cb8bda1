// Tests that can be skipped without anyone noticing are worse than none: no `.only`, no skip without a reason
// on its line, and no assertion guarded by a lone `if` (a check that silently does not run when the data
// changes). Either branch of an if/else may assert; a one-armed if must become a filter whose size is checked.
// No `vi.setConfig` either: once workers run file after file it reaches no test (timeouts.ts says what does).
// And no answer that depends on the day it runs: the sandbox's clock starts now unless pinned, so every
// startSandbox call in test/ (and sandboxWithStore, which passes its options on) names a start, or says on
// its line why not ("unpinned: <reason>").
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

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Each `startSandbox(...)` or `sandboxWithStore(...)` call: its file, line and the text of its arguments (to the matching parenthesis). */
function calls(file: string): { where: string; args: string; line: string }[] {
  const text = readFileSync(file, 'utf8');
  const out: { where: string; args: string; line: string }[] = [];
  for (const m of text.matchAll(/\b(startSandbox|sandboxWithStore)\(/g)) {
    let depth = 1;
    let k = m.index + m[0].length;
    for (; k < text.length && depth > 0; k++) depth += text[k] === '(' ? 1 : text[k] === ')' ? -1 : 0;
    const lineNo = text.slice(0, m.index).split('\n').length;
    const line = text.split('\n')[lineNo - 1];
    if (/^\s*(import|export|\/\/|\/?\*)/.test(line)) continue;
    out.push({ where: `${relative(TEST_DIR, file)}:${lineNo}`, args: text.slice(m.index + m[0].length, k - 1), line });
  }
  return out;
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

  it('start each sandbox at a named time, or say why not', () => {
    const all = sources(TEST_DIR).flatMap(calls);
    expect(all.length).toBeGreaterThan(40);
    const unpinned = all.filter((c) => !/\bstart\b/.test(c.args) && !/unpinned: \S/.test(c.line)).map((c) => c.where);
    expect(unpinned).toEqual([]);
  });
});
