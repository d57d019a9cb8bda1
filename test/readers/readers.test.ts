// @end-to-end
// The SQLite file opens in the readers analysts already have, not only in the SQLite ds-mirror bundles:
// the operating system's sqlite3 tool, Python's standard sqlite3 module (both linked to the system's
// SQLite: 3.40 on Debian 12) and SQLite 3.36 (old-sqlite.ts). Each selects every row of every table and
// view of a mirror with rows in all of them, and counts as better-sqlite3 does.
import { spawnSync } from 'node:child_process';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analystSqliteMirror } from '../analyst/analyst-fixture.js';
import type { TestStore } from '../helpers/stores.js';
import { ALWAYS_EMPTY, countOf, fillEveryTable, objectsOf } from './full-mirror.js';
import { openOldCopy, rowCount } from './old-sqlite.js';

/** Runs a reader installed on the system; missing, it fails with what to install (.ci/run installs both). */
function run(command: string, args: string[], input?: string): string {
  const r = spawnSync(command, args, { input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw new Error(`${command} is not runnable (${r.error.message}): install it (apt-get install sqlite3 python3)`);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout;
}

// Every row selected (written nowhere), then the count: a view whose columns a reader cannot evaluate fails.
const CLI_SCRIPT = (names: string[]) =>
  [
    '.bail on',
    '.mode list',
    ...names.flatMap((n) => ['.once /dev/null', `select * from "${n}";`, `select '${n}', count(*) from "${n}";`]),
  ].join('\n');

/** Every view column's declared type, as `view|column|TYPE` lines (the typed views: docs/analyst.md). */
const TYPES_QUERY = `select m.name || '|' || p.name || '|' || upper(p.type) as t from sqlite_master m join pragma_table_info(m.name) p
  where m.type = 'view' order by m.name, p.cid`;

const PYTHON_SCRIPT = `
import json, sqlite3, sys
con = sqlite3.connect(sys.argv[1])
out = {'version': sqlite3.sqlite_version, 'counts': {}}
for name in json.loads(sys.argv[2]):
    out['counts'][name] = len(con.execute('select * from "%s"' % name).fetchall())
print(json.dumps(out))
`;

describe('the SQLite file in other readers', () => {
  let mirror: Awaited<ReturnType<typeof analystSqliteMirror>>;
  let t: TestStore;
  let file: string;
  const expected: Record<string, number> = {};
  let types = '';

  beforeAll(async () => {
    mirror = await analystSqliteMirror();
    t = mirror.lite;
    await fillEveryTable(t.store);
    for (const { name } of await objectsOf(t.store)) expected[name] = await countOf(t.store, name);
    types = (await sql.raw<{ t: string }>(TYPES_QUERY).execute(t.store.db)).rows.map((r) => r.t).join('\n');
    await t.store.close(); // the last connection checkpoints the WAL into the file
    file = t.url.slice('sqlite:'.length);
  }, 600_000);
  afterAll(() => mirror?.cleanup());

  it('has rows in every table and every view (but the one that is always empty)', () => {
    const empty = Object.entries(expected).filter(([, n]) => n === 0);
    expect(empty).toEqual([[ALWAYS_EMPTY, 0]]);
    expect(Object.keys(expected).length).toBeGreaterThan(80);
  });

  it("opens every table and view in the system's sqlite3 tool", () => {
    const names = Object.keys(expected);
    const out = run('sqlite3', [file], CLI_SCRIPT(names));
    const counts = Object.fromEntries(
      out
        .trim()
        .split('\n')
        .map((line) => line.split('|'))
        .map(([name, n]) => [name, Number(n)]),
    );
    expect(counts).toEqual(expected);
  });

  it("opens every table and view in Python's standard sqlite3 module", () => {
    const out = JSON.parse(run('python3', ['-c', PYTHON_SCRIPT, file, JSON.stringify(Object.keys(expected))]));
    expect(out.counts).toEqual(expected);
  });

  it('shows the same declared view column types in SQLite 3.36, the system sqlite3 and better-sqlite3', async () => {
    expect(types).toMatch(/^v_assets\|price_usd\|REAL$/m);
    expect(run('sqlite3', [file, TYPES_QUERY]).trim()).toBe(types);
    const db = await openOldCopy(file);
    try {
      expect(db.exec(TYPES_QUERY)[0]!.values.join('\n')).toBe(types);
    } finally {
      db.close();
    }
  });

  it('opens every table and view in SQLite 3.36', async () => {
    const db = await openOldCopy(file);
    try {
      expect(db.exec('select sqlite_version()')[0]!.values[0]![0]).toBe('3.36.0');
      const counts = Object.fromEntries(Object.keys(expected).map((name) => [name, rowCount(db, name)]));
      expect(counts).toEqual(expected);
    } finally {
      db.close();
    }
  });
});
