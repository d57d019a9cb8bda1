// The catalog and the migrations describe the same tables: a stream's table has exactly its key, its
// mapped columns and the mirror's own columns; its primary key is the stream's key; every table whose
// rows a pass soft-deletes has the partial index on its live keys that deletion detection reads.
// Adding a stream is one catalog entry and one migration: this test fails when they disagree.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allStreams } from '../../src/catalog/index.js';
import type { ListStream, StreamDef } from '../../src/catalog/types.js';
import type { Dialect, Store } from '../../src/store/index.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

/** Columns the engine adds to every mirrored (list) table. */
const MIRROR_COLUMNS = ['raw', 'row_hash', 'first_seen_at', 'synced_at', 'deleted_at'];

interface TableShape {
  table: string;
  key: readonly string[];
  /** Every column the table must have, exactly (lists), or at least (fan-outs and hand-written streams). */
  columns: readonly string[];
  exact: boolean;
  /** The live-key index's columns (variant scope first), or null when nothing soft-deletes by key. */
  liveKeys: readonly string[] | null;
}

function shapes(stream: StreamDef): TableShape[] {
  if (stream.kind !== 'list') {
    return [
      {
        table: stream.table,
        key: stream.key,
        columns: stream.key,
        exact: false,
        liveKeys: stream.kind === 'custom' && stream.detectDeletes ? stream.key : null,
      },
    ];
  }
  const own = {
    table: stream.table,
    key: stream.key,
    columns: [...stream.key, ...Object.keys(stream.columns), ...MIRROR_COLUMNS],
    exact: true,
    liveKeys: liveKeys(stream),
  };
  if (!stream.child) return [own];
  const { child } = stream;
  const columns = [...child.key, ...Object.keys(child.columns), ...Object.keys(child.parentColumns), ...MIRROR_COLUMNS];
  return [own, { table: child.table, key: child.key, columns, exact: true, liveKeys: stream.detectDeletes ? child.key : null }];
}

function liveKeys(stream: ListStream): readonly string[] | null {
  if (!stream.detectDeletes) return null;
  const scope = [...new Set((stream.variants ?? []).flatMap((v) => Object.keys(v.scope)))];
  return [...scope, ...stream.key];
}

/** Every table of the catalog, once (assets-top shares assets' table). */
function catalogTables(): TableShape[] {
  const byTable = new Map<string, TableShape>();
  for (const shape of allStreams().flatMap(shapes)) {
    const known = byTable.get(shape.table);
    if (!known || (shape.liveKeys && !known.liveKeys)) byTable.set(shape.table, shape);
  }
  return [...byTable.values()];
}

async function primaryKey(store: Store, dialect: Dialect, table: string): Promise<string[]> {
  if (dialect === 'sqlite') {
    const rows = (await sql<{ name: string; pk: number }>`select name, pk from pragma_table_info(${table})`.execute(store.db)).rows;
    return rows
      .filter((r) => r.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((r) => r.name);
  }
  const rows = (
    await sql<{ column_name: string }>`
    select a.attname as column_name from pg_index i
    join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
    where i.indrelid = to_regclass(${table}) and i.indisprimary
    order by array_position(i.indkey, a.attnum)`.execute(store.db)
  ).rows;
  return rows.map((r) => r.column_name);
}

/** The live-key index's columns and whether it covers live rows only; null when there is none. */
async function liveKeyIndex(store: Store, dialect: Dialect, table: string): Promise<{ columns: string[]; partial: boolean } | null> {
  const name = `${table}_live_keys`;
  if (dialect === 'sqlite') {
    const [index] = (await sql<{ sql: string }>`select sql from sqlite_master where type = 'index' and name = ${name}`.execute(store.db))
      .rows;
    if (!index) return null;
    const columns = (await sql<{ name: string }>`select name from pragma_index_info(${name}) order by seqno`.execute(store.db)).rows;
    return { columns: columns.map((c) => c.name), partial: /where\s+"?deleted_at"?\s+is\s+null/i.test(index.sql) };
  }
  const [index] = (
    await sql<{ indexdef: string }>`select indexdef from pg_indexes where schemaname = current_schema() and indexname = ${name}`.execute(
      store.db,
    )
  ).rows;
  if (!index) return null;
  const columns = /\(([^)]*)\)/
    .exec(index.indexdef)![1]
    .split(',')
    .map((c) => c.trim().replaceAll('"', ''));
  return { columns, partial: /WHERE \(deleted_at IS NULL\)/i.test(index.indexdef) };
}

describe.each(dialects)('the catalog and the migrations agree on %s', (dialect) => {
  let t: TestStore;
  let tables: Map<string, string[]>;

  beforeAll(async () => {
    t = await openTestStore(dialect);
    // The store's own listing reads its schema alone; Kysely's introspection lists every schema's columns, and
    // another test file's mirror dropping a column at that moment fails it ('column ... does not exist').
    const listed = await t.store.adapter.listTables();
    tables = new Map(listed.map((table) => [table.name, table.columns.map((c) => c.name)]));
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it.each(catalogTables().map((s) => [s.table, s]))('%s: columns, key and live-key index', async (_name, shape) => {
    const columns = tables.get(shape.table);
    expect(columns, `no migration creates ${shape.table}`).toBeDefined();
    if (shape.exact) expect([...columns!].sort()).toEqual([...new Set(shape.columns)].sort());
    else for (const c of shape.columns) expect(columns, `${shape.table}.${c}`).toContain(c);
    expect(await primaryKey(t.store, dialect, shape.table)).toEqual([...shape.key]);
    const index = await liveKeyIndex(t.store, dialect, shape.table);
    if (shape.liveKeys === null) return;
    expect(index, `${shape.table} has no live-key index (${shape.table}_live_keys)`).not.toBeNull();
    expect(index).toEqual({ columns: [...shape.liveKeys], partial: true });
  });
});
