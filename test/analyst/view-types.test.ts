// Every column of every analyst view has a declared type of its kind as a BI tool reads it, spelled as
// docs/analyst.md gives it (one integer type, `bigint`, on PostgreSQL; `BOOLEAN` on SQLite): PRAGMA
// table_info on SQLite (the same in SQLite 3.36, 3.40 and 3.53: test/readers/), information_schema.columns
// on PostgreSQL. The kinds are the views' own column descriptions (schema/views).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYST_VIEWS, type ValueKind } from '../../schema/views/index.js';
import type { Dialect, Store } from '../../src/store/index.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

/** The declared type each kind reads as (SQLite has no time or date type: ISO text, docs/analyst.md says why). */
const DECLARED: Readonly<Record<Dialect, Readonly<Record<ValueKind, readonly string[]>>>> = {
  sqlite: {
    text: ['TEXT'],
    json: ['TEXT'],
    timestamp: ['TEXT'],
    date: ['TEXT'],
    integer: ['INTEGER'],
    double: ['REAL'],
    boolean: ['BOOLEAN'],
  },
  postgres: {
    text: ['text'],
    json: ['jsonb'],
    timestamp: ['timestamp with time zone'],
    date: ['date'],
    integer: ['bigint'],
    double: ['double precision'],
    boolean: ['boolean'],
  },
};

async function declaredTypes(store: Store, view: string): Promise<[string, string][]> {
  const { rows } =
    store.dialect === 'sqlite'
      ? await sql<{ name: string; type: string }>`select name, type from pragma_table_info(${view}) order by cid`.execute(store.db)
      : await sql<{ name: string; type: string }>`
          select column_name as name, data_type as type from information_schema.columns
          where table_schema = current_schema() and table_name = ${view} order by ordinal_position`.execute(store.db);
  return rows.map((r) => [r.name, r.type]);
}

describe.each(dialects)('analyst view column types on %s', (dialect) => {
  let t: TestStore;
  beforeAll(async () => {
    t = await openTestStore(dialect);
  });
  afterAll(() => t?.cleanup());

  it.each(ANALYST_VIEWS.map((v) => v.name))('%s: every column has the declared type of its kind', async (name) => {
    const view = ANALYST_VIEWS.find((v) => v.name === name)!;
    const wrong = (await declaredTypes(t.store, name)).flatMap(([column, type], i) => {
      const spec = view.columns[i];
      return spec?.name === column && DECLARED[dialect][spec.kind].includes(type)
        ? []
        : [`${column} ${type} (${spec?.name} ${spec?.kind})`];
    });
    expect(wrong).toEqual([]);
    expect((await declaredTypes(t.store, name)).length).toBe(view.columns.length);
  });
});

// The typed views cast a column only where it is computed: a table's column read as it is stays uncast,
// so a filter or join on a view's key still uses the table's index.
describe('typed views on sqlite keep their keys indexed', () => {
  let t: TestStore;
  beforeAll(async () => {
    t = await openTestStore('sqlite');
  });
  afterAll(() => t?.cleanup());

  it.each([
    ['v_assets', 'id', 'INTEGER PRIMARY KEY'],
    ['v_assets_history', 'id', 'INTEGER PRIMARY KEY'],
    ['v_events', 'id', 'sqlite_autoindex_monitoring_events_1'],
    ['v_chains_history', 'id', 'INTEGER PRIMARY KEY'],
  ])('%s where %s = ? searches by %s', async (view, column, index) => {
    const { rows } = await sql.raw<{ detail: string }>(`explain query plan select * from ${view} where ${column} = 5`).execute(t.store.db);
    expect(rows.map((r) => r.detail).join(' | ')).toMatch(new RegExp(`SEARCH r USING (INDEX )?${index}`));
  });
});
