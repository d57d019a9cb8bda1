// @end-to-end
// Every analyst view and every worked example (docs/examples/) read through the readers an analyst opens a
// mirror with gives the rows ds-mirror's own reading gives, value for value: the SQLite file through
// Python's standard sqlite3 module (the operating system's SQLite: 3.40 on Debian 12) against
// better-sqlite3, and the PostgreSQL mirror through psql (rows as json_agg) against the store's pool.
// .ci/run installs python3 and the PostgreSQL client.
import { spawnSync } from 'node:child_process';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYST_VIEWS } from '../../schema/views/index.js';
import { workedExamples } from '../../src/dictionary/worked-examples.js';
import type { Dialect } from '../../src/store/index.js';
import { type AnalystMirror, analystMirror } from '../analyst/analyst-fixture.js';
import type { TestStore } from '../helpers/stores.js';

const QUERIES: readonly { name: string; sql: Record<Dialect, string> }[] = [
  ...ANALYST_VIEWS.map((v) => ({ name: v.name, sql: { sqlite: `select * from ${v.name}`, postgres: `select * from ${v.name}` } })),
  ...workedExamples().map((e) => ({ name: `example ${e.name}`, sql: e.sql })),
];

const ISO_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}(:\d{2})?)$/;

/** Seconds since a time, to now: each reading has its own now. */
const NOW_DEPENDENT = new Set(['age_seconds', 'counted_at']);

function parsedJson(text: string): unknown {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}

/** One value as text both ways of reading agree on: times as toISOString, JSON re-serialised, integers as numbers. */
function canonical(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  if (typeof value === 'string' && /^[[{]/.test(value)) return parsedJson(value);
  if (typeof value === 'string' && ISO_TIME.test(value)) return new Date(value.replace(' ', 'T')).toISOString();
  if (typeof value === 'string' && /^-?\d+$/.test(value) && Number.isSafeInteger(Number(value))) return Number(value);
  return value;
}
const rowText = (row: Record<string, unknown>) =>
  JSON.stringify(Object.entries(row).map(([name, v]) => [name, NOW_DEPENDENT.has(name) ? null : canonical(v)]));
/** Rows as sorted text: a reader may return rows of equal sort keys in another order. */
const rowsOf = (rows: readonly Record<string, unknown>[]) => rows.map(rowText).sort();

function run(command: string, args: string[], env: Record<string, string> = {}): string {
  const r = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, env: { ...process.env, ...env } });
  if (r.error) throw new Error(`${command} is not runnable (${r.error.message}): install it (apt-get install python3 postgresql-client)`);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout;
}

const PYTHON = `
import json, sqlite3, sys
con = sqlite3.connect('file:%s?mode=ro' % sys.argv[1], uri=True)
out = {}
for q in json.loads(sys.stdin.read()):
    cursor = con.execute(q)
    names = [d[0] for d in cursor.description]
    out[q] = [dict(zip(names, r)) for r in cursor.fetchall()]
print(json.dumps(out))
`;

async function ownRows(t: TestStore, query: string): Promise<Record<string, unknown>[]> {
  return (await sql.raw<Record<string, unknown>>(query).execute(t.store.db)).rows;
}

describe('every view and worked example, read through Python and psql as ds-mirror reads it', () => {
  let mirror: AnalystMirror;
  let lite: TestStore;
  let pg: TestStore;
  let python: Record<string, Record<string, unknown>[]>;
  let psql: Record<string, Record<string, unknown>[]>;

  beforeAll(async () => {
    mirror = await analystMirror();
    ({ lite, pg } = mirror);
    const file = lite.url.slice('sqlite:'.length);
    await lite.store.close(); // the last connection checkpoints the WAL into the file
    lite = { ...lite, store: await lite.openAnother() };
    const input = JSON.stringify(QUERIES.map((q) => q.sql.sqlite));
    const r = spawnSync('python3', ['-c', PYTHON, file], { input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    if (r.error) throw new Error(`python3 is not runnable (${r.error.message}): install it (apt-get install python3)`);
    expect(r.stderr).toBe('');
    python = JSON.parse(r.stdout);
    // One psql process for every query (as Python's one process reads them all): each result one line of
    // JSON (json_agg's own line breaks fall between elements; a string's are escaped).
    const queries = QUERIES.map(
      (q) => `select replace(coalesce(json_agg(row_to_json(q)), '[]')::text, chr(10), ' ') from (${q.sql.postgres}) q`,
    );
    const out = run('psql', ['-X', '-q', '-A', '-t', pg.url, ...queries.flatMap((q) => ['-c', q])], {
      PGOPTIONS: `-c search_path=${pg.schema}`,
    });
    const lines = out.trimEnd().split('\n');
    expect(lines.length).toBe(QUERIES.length);
    psql = Object.fromEntries(QUERIES.map((q, i) => [q.sql.postgres, JSON.parse(lines[i]!)]));
  }, 600_000);
  afterAll(() => mirror?.cleanup());

  it.each(QUERIES.map((q) => [q.name, q] as const))("%s: Python's sqlite3 gives better-sqlite3's rows", async (_name, q) => {
    const own = await ownRows(lite, q.sql.sqlite);
    expect(rowsOf(python[q.sql.sqlite]!)).toEqual(rowsOf(own));
  });

  it.each(QUERIES.map((q) => [q.name, q] as const))("%s: psql gives the store's rows", async (_name, q) => {
    const own = await ownRows(pg, q.sql.postgres);
    expect(rowsOf(psql[q.sql.postgres]!)).toEqual(rowsOf(own));
  });
});
