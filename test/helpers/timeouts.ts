// A test or hook has 20 s by default, so a hang fails in seconds. A file whose tests sync a sandbox, spawn
// the CLI or run a daemon says so in its first line, `// @end-to-end`, and runs in the project whose bound
// is END_TO_END (vitest.config.ts); a file that waits on the real clock says `// @real-clock` and also
// starts first (sequencer.ts). The bounds are generous on purpose (a busy machine runs such files several
// times slower): they catch a hang, they measure nothing. A first-line pragma rather than a call in the
// file: vi.setConfig does not reach a file's tests once workers run file after file (isolate: false).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Tests and hooks of files that say nothing. */
export const UNIT = 20_000;
/** Syncs of a sandbox, CLI processes, daemons: seconds on a quiet machine, a minute or more on a busy one. */
export const END_TO_END = 180_000;

export type FileKind = 'real-clock' | 'end-to-end' | 'unit';

/** What a test file's first line says it is. */
export function fileKind(file: string): FileKind {
  const first = readFileSync(file, 'utf8').split('\n', 1)[0]!.trim();
  if (first === '// @real-clock') return 'real-clock';
  if (first === '// @end-to-end') return 'end-to-end';
  return 'unit';
}

/** The test files under `dir` (relative to the working directory) that are not unit files. */
export function longFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => join(dir, f))
    .filter((f) => fileKind(f) !== 'unit')
    .sort();
}
