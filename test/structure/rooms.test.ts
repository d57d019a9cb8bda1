// The rooms of src/ (its folders) import one way: no two rooms reach each other through any chain of
// imports (dependency-cruiser checks modules; this checks rooms). The package root (src/index.ts,
// src/errors.ts, ...) is no room: every room may use it and it re-exports them.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SRC = join(ROOT, 'src');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** room → rooms it imports (relative imports only; a file directly in src/ is in no room). */
function roomGraph(): Map<string, Set<string>> {
  const room = (file: string) => relative(SRC, file).split('/').slice(0, -1)[0] ?? null;
  const graph = new Map<string, Set<string>>();
  for (const file of tsFiles(SRC)) {
    const from = room(file);
    if (!from) continue;
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)) {
      const target = normalize(join(dirname(file), spec!));
      if (!target.startsWith(SRC)) continue;
      const to = room(target);
      if (to && to !== from) graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
  }
  return graph;
}

/** Every cycle found by a depth-first walk, as the rooms along it. */
function cycles(graph: Map<string, Set<string>>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const walk = (node: string, path: string[]) => {
    state.set(node, 'open');
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) walk(next, [...path, next]);
    }
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) walk(node, [node]);
  return found;
}

describe('rooms of src/', () => {
  it('import one way: no cycle between folders', () => {
    const graph = roomGraph();
    expect(graph.size).toBeGreaterThan(5); // the walk found the rooms
    expect(cycles(graph).map((c) => c.join(' → '))).toEqual([]);
  });

  it('the check finds a cycle when there is one', () => {
    const graph = new Map([
      ['sync', new Set(['store', 'history'])],
      ['history', new Set(['sync'])],
      ['store', new Set<string>()],
    ]);
    expect(cycles(graph).map((c) => c.join(' → '))).toEqual(['sync → history → sync']);
  });
});
