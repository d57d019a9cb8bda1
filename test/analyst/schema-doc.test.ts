// docs/schema.md against the database it describes, on both stores: the key of every table its first
// table lists (once it gave alert_history's as (view_id, event_id), where it is per development), the
// declared type of every view column it lists (by the rule of docs/analyst.md), and its word on times:
// one form per store, `/v1`'s Unix seconds included (once it said they were kept as sent).
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

describe.each(dialects)('docs/schema.md on %s', (dialect) => {
  let t: TestStore;
  beforeAll(async () => {
    t = await openTestStore(dialect);
  });
  afterAll(() => t?.cleanup());

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
