// The library (`src/index.ts`, the package's one export) offers the mirror's door and what its answers need,
// and no internals: every value it exports is named in README's "Use as a library", so exporting an engine
// part (the store's opening, a runner, the scheduler) fails here until it is documented as the library's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import * as library from '../../src/index.js';
import { ROOT } from './room-graph.js';

it("every value the library exports is named in README's Use as a library", () => {
  const section = readFileSync(join(ROOT, 'README.md'), 'utf8')
    .split(/^## /m)
    .find((s) => s.startsWith('Use as a library'));
  expect(section).toBeDefined();
  const exported = Object.keys(library);
  expect(exported).toContain('openMirror');
  expect(exported.filter((name) => !new RegExp(`\\b${name}\\b`).test(section!))).toEqual([]);
});
