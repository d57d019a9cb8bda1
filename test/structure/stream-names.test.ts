// A stream lives in the catalog (src/catalog/): no other file of src/ names a stream or a runner, so no
// room switches on one. The engine runs and the budget prices every stream through its runner
// (src/sync/runners.ts), found by the entry's kind or the runner name the entry gives
// (src/catalog/runner-names.ts), and a runner reads its stream's name from the catalog's entry or record.
// A stream named as its own table (`assets`, `charts`, ...) cannot be told from that table by its
// spelling, and tables are the migrations', the dictionary's and the views' to name: such a name is
// looked for only where it is compared with a stream's or runner's name. Allowed, and why:
// - 'token-unlocks' in src/budget/quota-error.ts and src/client/family-stops.ts: the token-unlocks API
//   family's name in a message (the first segment of its paths), not the stream's.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allStreams, RUNNERS } from '../../src/catalog/index.js';
import { ROOT } from './room-graph.js';

const ALLOWED = [
  { file: 'src/budget/quota-error.ts', name: 'token-unlocks' },
  { file: 'src/client/family-stops.ts', name: 'token-unlocks' },
];

interface CodeLine {
  path: string;
  n: number;
  line: string;
}

/** The code lines of src/ outside the catalog (comments left out: a comment may name a stream to explain). */
function codeLines(): CodeLine[] {
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(join(dir, e.name)) : /\.(ts|mjs)$/.test(e.name) ? [join(dir, e.name)] : [],
    );
  return files(join(ROOT, 'src'))
    .filter((file) => !relative(ROOT, file).startsWith('src/catalog/'))
    .flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ path: relative(ROOT, file), n: i + 1, line: line.replace(/\s\/\/ .*$/, '').trim() }))
        .filter(({ line }) => line !== '' && !/^(\/\/|\/\*|\*)/.test(line)),
    );
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
const quoted = (names: readonly string[]) => `['"\`](${names.map(escape).join('|')})['"\`]`;

/** What names a stream or runner on a line: the name as a string, or a comparison of a name with one. */
function streamNamesIn(lines: readonly CodeLine[], names: readonly string[], tables: ReadonlySet<string>): string[] {
  const literal = new RegExp(quoted(names.filter((n) => !tables.has(n))), 'g');
  const compared = new RegExp(`\\b(\\w*[nN]ame|runner|stream)\\s*[!=]==?\\s*${quoted(names)}`, 'g');
  return lines.flatMap(({ path, n, line }) =>
    [...new Set([...line.matchAll(literal), ...line.matchAll(compared)].map((m) => m[m.length - 1]!))]
      .filter((name) => !ALLOWED.some((a) => a.file === path && a.name === name))
      .map((name) => `${path}:${n}: '${name}': ${line}`),
  );
}

const streams = allStreams();
const NAMES = [...new Set([...streams.map((s) => s.name), ...Object.values(RUNNERS)])];
const TABLES = new Set(streams.map((s) => s.table));

describe('a stream lives in the catalog', () => {
  it('finds what it looks for', () => {
    const samples = [
      "const STREAM = 'monitoring-events';",
      'case "monitoring-views":',
      'if (stream === `token-unlocks`) return 1;',
      "if (def.name === 'assets') return;",
      "lookbackDays['sec-filings'] ?? 7",
    ].map((line, i) => ({ path: 'src/x.ts', n: i + 1, line }));
    expect(streamNamesIn(samples, NAMES, TABLES)).toHaveLength(samples.length);
    const tableOnly = [{ path: 'src/x.ts', n: 1, line: "db.selectFrom('assets')" }];
    expect(streamNamesIn(tableOnly, NAMES, TABLES)).toEqual([]);
  });

  it('no file of src/ outside src/catalog/ names a stream or a runner', () => {
    expect(NAMES).toContain(RUNNERS.events);
    expect(streamNamesIn(codeLines(), NAMES, TABLES)).toEqual([]);
  });
});
