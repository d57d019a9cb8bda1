// The run has one room (src/mirror/): the CLI parses, calls the mirror and prints. It imports no file of
// the scheduler, the budget or sync but their faces (index.ts), none of requests/ or paging/ (what sync
// plans and pages with), and no file outside the mirror's room
// puts a run together: starts the engine, checks the service the mirror holds, records the jobs, opens
// the quota gate or starts the daemon (the files that define those, and the faces that pass them on, aside).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, ROOT } from './room-graph.js';

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
