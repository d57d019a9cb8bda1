// Only the store knows SQLite from PostgreSQL (#23.3): views, triggers and comments ask the store's
// analyst-SQL dialect (src/store/analyst-sql.ts) instead of testing which store they are on. The
// numbered migrations are history, frozen as written: each is given the dialect's name by contract.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ALLOWED = [/^src\/store\//, /^schema\/migrations\//];
/** `=== 'sqlite'`, `'postgres' !==`, `case 'sqlite':` and the like. */
const COMPARISON = /(?:[!=]==?\s*'(?:sqlite|postgres)')|(?:'(?:sqlite|postgres)'\s*[!=]==?)|(?:case\s+'(?:sqlite|postgres)'\s*:)/;

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

function dialectComparisons(root: string): string[] {
  const found: string[] = [];
  for (const file of [...tsFiles(join(root, 'src')), ...tsFiles(join(root, 'schema'))]) {
    const path = relative(root, file);
    if (ALLOWED.some((a) => a.test(path))) continue;
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (COMPARISON.test(line)) found.push(`${path}:${i + 1}: ${line.trim()}`);
      });
  }
  return found;
}

describe('dialects only in the store', () => {
  it('finds the comparisons it looks for', () => {
    expect(["d === 'sqlite'", "'postgres' !== d", "case 'sqlite':", "x == 'postgres'"].every((s) => COMPARISON.test(s))).toBe(true);
    expect(COMPARISON.test("dialect: 'sqlite',")).toBe(false);
  });

  it('no code outside src/store/ tests which store it is on', () => {
    expect(dialectComparisons(ROOT)).toEqual([]);
  });
});
