// The rooms (room-graph.ts: the folders of src/, and schema/, jobs/, scripts/ beside it) import one way: no
// two rooms reach each other through any chain of imports, including imports that leave src/
// (dependency-cruiser checks modules; this checks rooms). docs/architecture.md's floors are drawn from
// the same graph, so the drawing cannot drift from the code.
// The run has one room (src/mirror/): the CLI parses, calls the mirror and prints. It imports no file of
// the scheduler, the budget or sync but their faces (index.ts), none of requests/ or paging/ (what sync
// plans and pages with), and no file outside the mirror's room
// puts a run together: starts the engine, checks the service the mirror holds, records the jobs, opens
// the quota gate or starts the daemon (the files that define those, and the faces that pass them on, aside).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, drawFloors, importsOf, ROOT, roomGraph, roomOf, withFloors } from './room-graph.js';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

const rel = (file: string) => relative(ROOT, file).split('\\').join('/');

/** What a run is put together from, and the files that define each. */
const RUN_PARTS: [RegExp, RegExp][] = [
  [/\brunSync\(/, /^src\/sync\/engine\.ts$/],
  // The engine checks again before each run's first request: the scheduled runs' check.
  [/\bcheckService\(/, /^src\/sync\/(mirrored-service|engine)\.ts$/],
  [/\brecordJobs\(/, /^src\/scheduler\/record-jobs\.ts$/],
  [/\bquotaGate\(/, /^src\/budget\/quota-gate\.ts$/],
  [/\bstartDaemon\(/, /^$/],
];

describe('the run has one room', () => {
  it('the CLI reaches the scheduler, budget and sync through their faces only, and requests and paging not at all', () => {
    const internals = sourceFiles(join(ROOT, 'src/cli')).flatMap((file) =>
      importsOf(readFileSync(file, 'utf8'))
        .map((spec) => rel(resolve(dirname(file), spec.replace(/\.js$/, '.ts'))))
        .filter(
          (target) =>
            /^src\/(scheduler|budget|sync|requests|paging)\//.test(target) && !/^src\/(scheduler|budget|sync)\/index\.ts$/.test(target),
        )
        .map((target) => `${rel(file)} -> ${target}`),
    );
    expect(internals).toEqual([]);
  });

  it('no file of src/ outside src/mirror/ puts a run together', () => {
    const outside = sourceFiles(join(ROOT, 'src')).filter((f) => !rel(f).startsWith('src/mirror/'));
    const found = outside.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return RUN_PARTS.filter(([call, home]) => call.test(text) && !home.test(rel(file))).map(([call]) => `${rel(file)}: ${call.source}`);
    });
    expect(found).toEqual([]);
  });
});

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
