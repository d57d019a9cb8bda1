// A test or hook has 20 s by default, so a hang fails in seconds. A file whose tests sync a sandbox, spawn
// the CLI or run a daemon says so in its first line, `// @end-to-end`, and its tests and hooks are bound by
// END_TO_END (set before the file loads by the setup file file-timeouts.ts); a file that waits on the real
// clock says `// @real-clock`, gets the same bound and also starts first (sequencer.ts). The bounds are
// generous on purpose (a busy machine runs such files several times slower): they catch a hang, they
// measure nothing. A first-line pragma rather than a call in the file: the file's tests and hooks take
// their bound when they are declared, so it must be set before the file's first line runs.
import { readFileSync } from 'node:fs';

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
