// The data dictionary covers the database exactly (every table, view and column described, nothing
// described that does not exist) on both stores, PostgreSQL carries it as comments, and docs/schema.md's
// generated section and `ds-mirror schema` print it. docs/schema.md against the database it describes, on
// both stores: the key of every table its first table lists (once it gave alert_history's as (view_id,
// event_id), where it is per development), the declared type of every view column it lists (by the rule of
// docs/analyst.md), and its word on times: one form per store, `/v1`'s Unix seconds included (once it said
// they were kept as sent). One store per dialect for both, which only read it.
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { DICTIONARY } from '../../src/dictionary/index.js';
import { dictionaryMarkdown } from '../../src/dictionary/render.js';
import { readSection } from '../../src/dictionary/generated-sections.js';
import { listTables } from '../../src/store/store-tables.js';
import type { Dialect, Store } from '../../src/store/index.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const DOC = readFileSync(new URL('../../docs/schema.md', import.meta.url), 'utf8');

/** The types docs/analyst.md gives each kind (one integer type, one boolean spelling). */
const DECLARED: Readonly<Record<Dialect, Readonly<Record<string, string>>>> = {
  sqlite: { text: 'TEXT', json: 'TEXT', timestamp: 'TEXT', date: 'TEXT', integer: 'INTEGER', double: 'REAL', boolean: 'BOOLEAN' },
  postgres: {
    text: 'text',
    json: 'jsonb',
    timestamp: 'timestamp with time zone',
    date: 'date',
    integer: 'bigint',
    double: 'double precision',
    boolean: 'boolean',
  },
};

/** The first table of the doc: each table named in a row, with the key its key column gives. */
function documentedKeys(): Map<string, string[]> {
  const keys = new Map<string, string[]>();
  const intro = DOC.slice(0, DOC.indexOf('### Data dictionary'));
  for (const line of intro.split('\n')) {
    const cells = line.split(' | ');
    if (!line.startsWith('| `') || cells.length < 4) continue;
    const tables = [...cells[0].matchAll(/`([a-z_0-9]+)`/g)].map((m) => m[1]);
    const perTable = cells[2].split(' / ');
    tables.forEach((table, i) => {
      const key = (perTable.length === tables.length ? perTable[i] : perTable[0])
        .replace(/^([a-z_, ]+) \(.*\)$/, '$1') // an annotation: `id (UUID)`
        .replace(/^\((.*)\)$/, '$1');
      keys.set(
        table,
        key.split(',').map((k) => k.trim()),
      );
    });
  }
  return keys;
}

/** Every view section of the generated dictionary: its columns with the kind the doc gives. */
function documentedViewColumns(): Map<string, [string, string][]> {
  const views = new Map<string, [string, string][]>();
  for (const section of DOC.split('\n#### ').slice(1)) {
    const name = /^`([a-z_0-9]+)` \(view\)/.exec(section)?.[1];
    if (!name) continue;
    const rows = [...section.matchAll(/^\| `([a-z_0-9]+)` \| ([a-z]+) \|/gm)].map((m) => [m[1], m[2]] as [string, string]);
    views.set(name, rows);
  }
  return views;
}

async function primaryKey(store: Store, table: string): Promise<string[]> {
  if (store.dialect === 'sqlite') {
    const { rows } = await sql<{
      name: string;
      pk: number;
    }>`select name, pk from pragma_table_info(${table}) where pk > 0 order by pk`.execute(store.db);
    return rows.map((r) => r.name);
  }
  const { rows } = await sql<{ name: string }>`
    select a.attname as name from pg_index i
    join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
    where i.indrelid = to_regclass(${table}) and i.indisprimary
    order by array_position(i.indkey::int2[], a.attnum)`.execute(store.db);
  return rows.map((r) => r.name);
}

async function declaredTypes(store: Store, relation: string): Promise<Map<string, string>> {
  const { rows } =
    store.dialect === 'sqlite'
      ? await sql<{ name: string; type: string }>`select name, type from pragma_table_info(${relation})`.execute(store.db)
      : await sql<{ name: string; type: string }>`select column_name as name, data_type as type from information_schema.columns
          where table_schema = current_schema() and table_name = ${relation}`.execute(store.db);
  return new Map(rows.map((r) => [r.name, r.type]));
}

/** Every relation (table or view) of the store with its columns, read from the database. */
async function relations(store: Store): Promise<Map<string, string[]>> {
  const { rows } =
    store.dialect === 'sqlite'
      ? await sql<{ relation: string; column: string }>`
          select m.name as relation, c.name as "column" from sqlite_master m join pragma_table_info(m.name) c
          where m.type in ('table', 'view') and m.name not like 'sqlite_%'`.execute(store.db)
      : await sql<{ relation: string; column: string }>`
          select c.relname as relation, a.attname as "column" from pg_class c
            join pg_namespace n on n.oid = c.relnamespace
            join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
          where n.nspname = current_schema() and c.relkind in ('r', 'v')`.execute(store.db);
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.relation, [...(out.get(r.relation) ?? []), r.column]);
  return out;
}

describe.each(dialects)('data dictionary and docs/schema.md on %s', (dialect) => {
  let t: TestStore;
  beforeAll(async () => {
    t = await openTestStore(dialect);
  });
  afterAll(async () => t?.cleanup());

  it('describes every table, view and column of the database, and nothing else', async () => {
    const db = await relations(t.store);
    const undocumented: string[] = [];
    for (const [relation, columns] of db) {
      const doc = DICTIONARY.find((d) => d.name === relation);
      if (!doc) undocumented.push(relation);
      else
        for (const c of columns)
          if (!doc.columns.some((d) => d.name === c && d.description.length > 0)) undocumented.push(`${relation}.${c}`);
    }
    expect(undocumented, 'add these to src/dictionary/').toEqual([]);
    const stale = DICTIONARY.flatMap((d) =>
      db.has(d.name) ? d.columns.filter((c) => !db.get(d.name)!.includes(c.name)).map((c) => `${d.name}.${c.name}`) : [d.name],
    );
    expect(stale, 'described but not in the database').toEqual([]);
    expect((await listTables(t.store)).length).toBeGreaterThan(30);
  });

  // PostgreSQL only: SQLite has no comments (its descriptions are published by `ds-mirror schema` and docs/schema.md).
  it.runIf(dialect === 'postgres')('PostgreSQL carries every description as a comment', async () => {
    const { rows } = await sql<{ relation: string; column: string | null; comment: string | null }>`
      select c.relname as relation, a.attname as "column", col_description(c.oid, a.attnum) as comment
      from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where n.nspname = current_schema() and c.relkind in ('r', 'v')`.execute(t.store.db);
    const missing = rows.filter((r) => {
      const doc = DICTIONARY.find((d) => d.name === r.relation)?.columns.find((c) => c.name === r.column);
      return r.comment !== doc?.description;
    });
    expect(missing.map((r) => `${r.relation}.${r.column}`)).toEqual([]);
    const { rows: tables } = await sql<{ comment: string }>`select obj_description(to_regclass('v_alerts'), 'pg_class') as comment`.execute(
      t.store.db,
    );
    expect(tables[0].comment).toBe(DICTIONARY.find((d) => d.name === 'v_alerts')!.description);
  });

  it('gives every table it lists its primary key', async () => {
    const keys = documentedKeys();
    expect(keys.get('alert_history')).toEqual(['view_id', 'event_id', 'development_id']);
    const wrong: string[] = [];
    for (const [table, key] of keys) {
      const actual = await primaryKey(t.store, table);
      if (actual.join(', ') !== key.join(', ')) wrong.push(`${table}: documented (${key.join(', ')}), is (${actual.join(', ')})`);
    }
    expect(wrong).toEqual([]);
  });

  it("gives every view column a kind whose declared type is docs/analyst.md's", async () => {
    const views = documentedViewColumns();
    expect(views.size).toBeGreaterThan(30);
    const wrong: string[] = [];
    for (const [view, columns] of views) {
      const types = await declaredTypes(t.store, view);
      expect([view, types.size]).toEqual([view, columns.length]);
      for (const [column, kind] of columns)
        if (types.get(column) !== DECLARED[dialect][kind])
          wrong.push(`${view}.${column}: ${kind} documented, ${types.get(column)} declared`);
    }
    expect(wrong).toEqual([]);
  });

  it("keeps /v1's Unix-second times in the store's one form of a time", async () => {
    expect(DOC).not.toMatch(/keep the API's Unix seconds/);
    for (const [table, column] of [
      ['assets', 'updated_at'],
      ['assets', 'price_updated_at'],
      ['transparency_ratings', 'created_at'],
      ['projects', 'updated_at'],
    ])
      expect([table, column, (await declaredTypes(t.store, table)).get(column)]).toEqual([table, column, DECLARED[dialect].timestamp]);
  });
});

describe('published dictionary', () => {
  it("docs/schema.md's dictionary is what the code generates (npm run docs:schema rewrites it)", () => {
    const readme = readFileSync(new URL('../../docs/schema.md', import.meta.url), 'utf8');
    expect(readSection(readme, 'schema')).toBe(dictionaryMarkdown(DICTIONARY));
  });

  it('ds-mirror schema prints plain text, Markdown and JSON, and refuses an unknown name in one line', async () => {
    const run = async (...args: string[]) => {
      let out = '';
      let err = '';
      const io = { stdout: { write: (s: string) => ((out += s), true) }, stderr: { write: (s: string) => ((err += s), true) }, env: {} };
      const code = await main(['node', 'ds-mirror', 'schema', ...args], io as never);
      return { code, out, err };
    };
    const json = await run('--format', 'json', 'v_assets', 'assets');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out).map((d: { name: string }) => d.name)).toEqual(['v_assets', 'assets']);
    const md = await run('--format', 'md', 'v_events');
    expect(md.out).toContain('| `importance_rank` | integer |');
    const text = await run('v_events'); // plain text by default: no HTML, no Markdown table
    expect(text.out).toMatch(/^v_events \(view\)$/m);
    expect(text.out).toMatch(/^ {2}importance_rank +integer +\S/m);
    expect(text.out).not.toMatch(/<details>|\| `/);
    const bad = await run('v_nope');
    expect([bad.code, bad.err.trim().split('\n').length, bad.err]).toEqual([2, 1, expect.stringContaining('v_nope')]);
  });
});
