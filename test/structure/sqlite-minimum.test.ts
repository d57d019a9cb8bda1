// The SQLite file opens in SQLite 3.37 and later (README): one view newer than a reader's SQLite and it
// refuses the whole file. Every statement a fresh SQLite migration runs (tables, migrations' updates,
// views, triggers), as ds-mirror generates it, is replayed in SQLite 3.36 (test/readers/old-sqlite.ts),
// then every view is selected and every trigger compiled there. A list of the constructs newer than 3.37
// names what went wrong, and catches them where they may hide from an empty database.
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { runMigrations } from '../../src/store/run-migrations.js';
import { SQLITE_COLUMN_TYPES } from '../../src/store/sqlite/sqlite-adapter.js';
import { oldSqlite, type OldDatabase } from '../readers/old-sqlite.js';
import { MIRROR_SCHEMA } from '../../src/mirror-schema/index.js';

/** SQL newer than 3.37, with the release that brought it. */
const NEWER: readonly (readonly [RegExp, string])[] = [
  [/->>?/, '-> and ->> (3.38)'],
  [/\bunixepoch\s*\(/i, 'unixepoch() (3.38)'],
  [/\bformat\s*\(/i, 'format() (3.38)'],
  [/\b(right|full)\s+(outer\s+)?join\b/i, 'RIGHT and FULL JOIN (3.39)'],
  [/\bis\s+(not\s+)?distinct\s+from\b/i, 'IS [NOT] DISTINCT FROM (3.39)'],
  [/\bunhex\s*\(/i, 'unhex() (3.41)'],
  [/\b(octet_length|timediff)\s*\(/i, 'octet_length() and timediff() (3.43)'],
  [/\b(string_agg|concat|concat_ws)\s*\(/i, 'string_agg(), concat(), concat_ws() (3.44)'],
  [/\b(group_concat|string_agg|json_group_array|json_group_object)\s*\([^()]*\border\s+by\b/i, 'an ordered aggregate (3.44)'],
  [/\bjsonb(_\w+)?\s*\(/i, 'jsonb functions (3.45)'],
  [/\b(json_pretty|percentile\w*|median)\s*\(/i, 'json_pretty(), percentiles (3.46, 3.47)'],
  [/\b\d+_\d+\b/, 'digit separators in numbers (3.46)'],
];

const statements: string[] = [];
const parameters: (readonly unknown[])[] = [];
let old: OldDatabase;

beforeAll(async () => {
  const db = new Kysely<unknown>({
    dialect: new SqliteDialect({ database: new Database(':memory:') }),
    log: (e) => {
      statements.push(e.query.sql);
      parameters.push(e.query.parameters);
    },
  });
  // Every migration through the Migrator (not the schema prepared at build), as an upgrade runs them.
  const migrated = await runMigrations(db, { dialect: 'sqlite', columnTypes: SQLITE_COLUMN_TYPES }, MIRROR_SCHEMA, async () => undefined);
  await db.destroy();
  expect(migrated.error).toBeUndefined();
  old = new (await oldSqlite()).Database();
}, 120_000);

describe('the SQL a SQLite mirror is made with', () => {
  it('holds nothing newer than SQLite 3.37', () => {
    const found = statements.flatMap((s) =>
      NEWER.filter(([pattern]) => pattern.test(stripStrings(s))).map(([, what]) => `${what}: ${s.slice(0, 80)}`),
    );
    // strftime's newer conversions hide in its format, a string.
    found.push(
      ...statements.filter((s) => /strftime\s*\(\s*'[^']*%[GgVuklPp]/.test(s)).map((s) => `strftime %G %V %u... (3.46): ${s.slice(0, 80)}`),
    );
    expect(found).toEqual([]);
  });

  it('runs in SQLite 3.36, where every view can be selected and every trigger compiled', () => {
    expect(old.exec('select sqlite_version()')[0]!.values[0]![0]).toBe('3.36.0');
    const failed: string[] = [];
    const attempt = (what: string, sql: string, params: readonly unknown[] = []) => {
      try {
        old.run(sql, [...params]);
      } catch (e) {
        failed.push(`${what}: ${(e as Error).message}`);
      }
    };
    // A migration's probe of the ledger before the ledger exists fails here as it failed there.
    statements.forEach((s, i) => {
      if (s !== 'select "name" from "kysely_migration"') attempt(s.slice(0, 80), s, parameters[i]);
    });
    const objects = old.exec(`select type, name, tbl_name, sql from sqlite_master where type in ('view', 'trigger')`)[0]!
      .values as string[][];
    // A statement that writes nothing still compiles the triggers of its kind of write.
    const firing = (table: string, sql: string) =>
      /after\s+insert/i.test(sql)
        ? `insert into "${table}" select * from "${table}" where 0`
        : /after\s+delete/i.test(sql)
          ? `delete from "${table}" where 0`
          : `update "${table}" set rowid = rowid where 0`;
    for (const [type, name, table, sql] of objects)
      attempt(name!, type === 'view' ? `select * from "${name}" limit 1` : firing(table!, sql!));
    expect(failed).toEqual([]);
    expect(objects.filter(([type]) => type === 'view').length).toBeGreaterThan(30);
    expect(objects.filter(([type]) => type === 'trigger').length).toBeGreaterThan(20);
    // About 2.5 s of CPU (the migrations' 536 statements in SQLite built to WebAssembly, their ALTER and
    // CREATE TABLE most of it): beside a busy suite (load 30-50) it passed 20 s (a bound, not a measure).
  }, 120_000);
});

/** The statement without its string literals (a view's description may say "full join"). */
function stripStrings(sql: string): string {
  return sql.replace(/'(?:[^']|'')*'/g, "''");
}
