// The README is what a newcomer reads in five minutes; the reference lives in docs/.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('stays at most 400 lines, with no line a screen cannot hold', () => {
    const lines = README.split('\n');
    expect(lines.length).toBeLessThanOrEqual(400);
    expect(lines.filter((l) => l.length > 200 && !l.startsWith('|'))).toEqual([]);
  });

  it('links only to documents that exist in the repository', () => {
    const links = [...README.matchAll(/\]\((docs\/[^)#]+)/g)].map((m) => m[1]);
    expect(links.length).toBeGreaterThan(5);
    const missing = links.filter((l) => {
      try {
        readFileSync(new URL(`../../${l}`, import.meta.url));
        return false;
      } catch {
        return true;
      }
    });
    expect(missing).toEqual([]);
  });
});
