// The sandbox's clock starts now unless pinned, so a test that starts one without a start would give
// answers that depend on the day it runs. Every startSandbox call in test/ (and sandboxWithStore, which
// passes its options on) names a start, or says on its line why not ("unpinned: <reason>").
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const TEST_DIR = fileURLToPath(new URL('..', import.meta.url));

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

describe('sandboxes in tests', () => {
  it('name their start, or say why not', () => {
    const all = sources(TEST_DIR).flatMap(calls);
    expect(all.length).toBeGreaterThan(40);
    const unpinned = all.filter((c) => !/\bstart\b/.test(c.args) && !/unpinned: \S/.test(c.line)).map((c) => c.where);
    expect(unpinned).toEqual([]);
  });
});
