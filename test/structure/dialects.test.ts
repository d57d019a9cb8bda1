// A dialect is one folder (src/store/<dialect>/): nothing outside the dialect folders knows SQLite from
// PostgreSQL, by name or by SQL. Views, triggers and comments ask the store's analyst-SQL dialect
// (src/store/analyst-sql.ts), the store's root asks each dialect's StoreDialect object (dialects.ts), and
// others ask the adapter for capabilities. Allowed, and why:
// - schema/migrations/: the numbered migrations are history, frozen as written; each is given the
//   dialect's name by contract (`up(db, t, dialect)`) for the rare statement only one store has.
// - the `Dialect` type in src/store/types.ts: the names that contract hands the migrations.
// - a room's own dialect folder (src/budget/postgres/: the pace the workers of one PostgreSQL share), what
//   that room alone asks of one dialect, reached through the room's list of them (shared-pace.ts).
// - src/dictionary/worked-examples.ts: the worked examples are documents written for each store
//   (docs/examples/<name>.<dialect>.sql), read and printed under the store's name.
// The URL forms in the CLI's help and the default `--db` name SQLite as text for people, and are not matched.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../src/store/dialects.js';
import { ROOT } from './room-graph.js';

const ALLOWED_FILES = [/^src\/[a-z-]+\/(sqlite|postgres)\//, /^schema\/migrations\//, /^src\/dictionary\/worked-examples\.ts$/];
const ALLOWED_LINES = [{ file: 'src/store/types.ts', line: /^export type Dialect = 'sqlite' \| 'postgres';$/ }];

/** What knows a dialect: its name as a string or key, its driver, its catalog, its SQL, its error codes. */
const KNOWLEDGE: [string, RegExp][] = [
  ['a dialect by name', /'(sqlite|postgres(ql)?)'|"(sqlite|postgres(ql)?)"|\b(sqlite|postgres)\s*:\s/i],
  ['a driver', /['"](better-sqlite3|pg|pg-copy-streams|pg-[a-z-]+)['"]/],
  ['a catalog', /\b(sqlite_(master|schema|sequence)|pg_[a-z_]+|information_schema|current_schema|to_regclass|regnamespace)\b/i],
  [
    'dialect SQL',
    /\b(pragma|strftime|json_extract|jsonb\w*|::(text|jsonb?|int\w*|bigint|regclass)|is distinct from|bigserial|timestamptz)\b/i,
  ],
  ['an error code', /\bSQLITE_[A-Z]+|['"][0-9]{2}[0-9A-Z]{3}['"]/],
];

/** The files' code lines (comments left out: a comment may name a dialect to explain). */
function codeLines(root: string, dirs: readonly string[]): { path: string; n: number; line: string }[] {
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(join(dir, e.name)) : /\.(ts|mjs)$/.test(e.name) ? [join(dir, e.name)] : [],
    );
  return dirs.flatMap((dir) =>
    files(join(root, dir)).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ path: relative(root, file), n: i + 1, line: line.replace(/\s\/\/ .*$/, '').trim() }))
        .filter(({ line }) => line !== '' && !/^(\/\/|\/\*|\*)/.test(line)),
    ),
  );
}

function dialectKnowledge(root: string): string[] {
  return codeLines(root, ['src', 'schema'])
    .filter(({ path }) => !ALLOWED_FILES.some((a) => a.test(path)))
    .filter(({ path, line }) => !ALLOWED_LINES.some((a) => a.file === path && a.line.test(line)))
    .flatMap(({ path, n, line }) => KNOWLEDGE.filter(([, re]) => re.test(line)).map(([what]) => `${path}:${n}: ${what}: ${line}`));
}

/** The files every dialect folder provides, named for the dialect (docs/development.md lists what each does). */
const DIALECT_FILES = ['dialect', 'location', 'adapter', 'migrator', 'errors', 'analyst-sql', 'tables', 'upsert', 'values'];

describe('a dialect is one folder', () => {
  it('finds the knowledge it looks for', () => {
    const samples = [
      "if (d === 'sqlite') return;",
      "const DISTINCT = { sqlite: 'is not', postgres: 'is distinct from' };",
      "import pg from 'pg';",
      "import Database from 'better-sqlite3';",
      'select name from sqlite_master',
      "select pg_advisory_xact_lock(hashtext('x'))",
      'pragma synchronous = FULL',
      "if (code === 'SQLITE_BUSY') retry();",
      "const TRANSIENT = ['57P03'];",
    ];
    expect(samples.filter((s) => !KNOWLEDGE.some(([, re]) => re.test(s)))).toEqual([]);
    expect(KNOWLEDGE.some(([, re]) => re.test("throw new Error('the store is closed');"))).toBe(false);
  });

  it('nothing outside the dialect folders knows SQLite from PostgreSQL', () => {
    expect(dialectKnowledge(ROOT)).toEqual([]);
  });

  it('each dialect is a folder of the same files, and every folder is a listed dialect', () => {
    const folders = readdirSync(join(ROOT, 'src/store'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect(DIALECTS.map((d) => d.name).sort()).toEqual(folders);
    for (const name of folders) {
      const files = new Set(readdirSync(join(ROOT, 'src/store', name)));
      expect(
        DIALECT_FILES.filter((f) => !files.has(`${name}-${f}.ts`)),
        name,
      ).toEqual([]);
    }
  });
});
