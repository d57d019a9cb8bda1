// The rooms (room-graph.ts: the folders of src/, and schema/, jobs/, scripts/ beside it) import one way: no
// two rooms reach each other through any chain of imports, including imports that leave src/
// (dependency-cruiser checks modules; this checks rooms). docs/architecture.md's floors are drawn from
// the same graph, so the drawing cannot drift from the code.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, drawFloors, importsOf, ROOT, roomGraph, roomOf, withFloors } from './room-graph.js';

describe('rooms', () => {
  it('import one way: no cycle between folders of src/ and schema/', () => {
    const graph = roomGraph();
    expect(graph.size).toBeGreaterThan(5); // the walk found the rooms
    expect(graph.get('src/export')).toContain('schema'); // and it sees imports that leave src/
    expect(cycles(graph).map((c) => c.join(' → '))).toEqual([]);
  });

  it('the store imports no room: it is the ground floor', () => {
    expect([...(roomGraph().get('src/store') ?? [])]).toEqual([]);
  });

  it('the check finds a cycle when there is one', () => {
    const graph = new Map([
      ['src/sync', new Set(['src/store', 'schema'])],
      ['schema', new Set(['src/sync'])],
      ['src/store', new Set<string>()],
    ]);
    expect(cycles(graph).map((c) => c.join(' → '))).toEqual(['schema → src/sync → schema']);
  });

  it('reads static, re-exported and dynamic imports, and places their targets', () => {
    const text = "import { a } from '../store/a.js';\nexport { b } from './b.js';\nconst c = await import('../../schema/c.js');";
    expect(importsOf(text)).toEqual(['../store/a.js', './b.js', '../../schema/c.js']);
    expect(roomOf(join(ROOT, 'src/store/sqlite/x.ts'))).toBe('src/store');
    expect(roomOf(join(ROOT, 'schema/views/x.ts'))).toBe('schema');
    expect(roomOf(join(ROOT, 'src/errors.ts'))).toBeNull();
  });

  it('docs/architecture.md draws the floors the imports make (npm run docs:architecture redraws them)', () => {
    const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    expect(doc).toBe(withFloors(doc, drawFloors(roomGraph())));
  });

  it('docs/architecture.md describes every room', () => {
    const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    const undescribed = [...roomGraph().keys()].filter((room) => !doc.includes(`(\`${room}/\``));
    expect(undescribed).toEqual([]);
  });
});
