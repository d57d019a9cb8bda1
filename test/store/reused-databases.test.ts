// The harness hands a PostgreSQL test database it emptied to the next store (test/helpers/reused-databases.ts):
// this proves the next store sees exactly what a fresh clone of the template shows (every table's rows, every
// sequence, the schema dump), whatever the test before wrote, and that a database the harness cannot bring
// back (its seeded rows or its schema changed) is never handed out again.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { reuse } from '../helpers/reused-databases.js';
import { schemaDump } from '../helpers/schema-dump.js';
import { createMirrorTable, openTestStore, type TestStore } from '../helpers/stores.js';

/** Every table of the store's schema with its rows (as text, sorted), every sequence's last value, the schema. */
async function snapshot(
  store: Store,
): Promise<{ rows: Record<string, string[]>; sequences: Record<string, string | null>; schema: string }> {
  const { rows: tables } = await sql<{ name: string }>`
    select relname as name from pg_class where relnamespace = current_schema()::regnamespace and relkind = 'r' order by 1`.execute(
    store.db,
  );
  const rows: Record<string, string[]> = {};
  for (const { name } of tables) {
    const { rows: all } = await sql<{ r: string }>`select r::text as r from ${sql.table(name)} r order by 1`.execute(store.db);
    // The ledger's times say when the template was made: the same in every clone.
    rows[name] = all.map((r) => r.r);
  }
  const { rows: seqs } = await sql<{ name: string; last: string | null }>`
    select seqrelid::regclass::text as name, pg_sequence_last_value(seqrelid)::text as last from pg_sequence
    where seqrelid::regclass::text like current_schema() || '.%' order by 1`.execute(store.db);
  return { rows, sequences: Object.fromEntries(seqs.map((s) => [s.name, s.last])), schema: await schemaDump(store) };
}

/** Writes rows in several tables: assets (whose triggers write history and the crosswalk), a run and its streams (a sequence, a foreign key), the quarantine (a sequence). */
async function writeEverywhere(t: TestStore): Promise<void> {
  const asset = (id: number, hash: string) => ({ id, code: `C${id}`, title: `asset ${id}`, raw: { id }, row_hash: hash });
  await t.store.transaction((tx) => tx.upsertChanged('assets', ['id'], [asset(1, 'a'), asset(2, 'a')], '2025-01-01T00:00:00.000Z'));
  await t.store.transaction((tx) => tx.upsertChanged('assets', ['id'], [asset(1, 'b')], '2025-01-02T00:00:00.000Z'));
  await sql`insert into sync_runs (started_at, mode, streams) values (now(), 'full', '[]')`.execute(t.store.db);
  await sql`insert into sync_run_streams (run_id, stream, outcome) select id, 'assets', 'ok' from sync_runs`.execute(t.store.db);
  await sql`insert into quarantine (stream, reason, seen_at) values ('assets', 'test', now())`.execute(t.store.db);
  await sql`select nextval('row_history_id_seq'), nextval('quarantine_id_seq')`.execute(t.store.db);
  // A rolled-back write leaves pages, and a moved sequence, behind.
  await t.store.db
    .transaction()
    .execute(async (trx) => {
      await sql`insert into sync_runs (started_at, mode, streams) values (now(), 'full', '[]')`.execute(trx);
      throw new Error('rolled back');
    })
    .catch(() => {});
}

// DS_TEST_PG_FRESH=1 turns reuse off for a run (to rule it out): then there is nothing here to prove.
describe.skipIf(!reuse)('reused test databases (postgres)', () => {
  let fresh: Awaited<ReturnType<typeof snapshot>>;

  beforeAll(async () => {
    const t = await openTestStore('postgres', { fresh: true });
    fresh = await snapshot(t.store);
    await t.cleanup();
  });

  /** Writes with `write`, cleans up, and returns the next store (the same database, when reused) and whether it was reused. */
  async function afterWriting(write: (t: TestStore) => Promise<void>): Promise<{ next: TestStore; reused: boolean }> {
    const t = await openTestStore('postgres');
    await write(t);
    const another = await t.openAnother(); // a second pool, closed by cleanup too
    await sql`select 1`.execute(another.db);
    await t.cleanup();
    const next = await openTestStore('postgres');
    return { next, reused: next.url === t.url };
  }

  let last: TestStore | undefined;
  afterAll(() => last?.cleanup());

  it('a test that wrote rows in several tables, with triggers, sequences and a rolled-back write, leaves its successor a fresh clone', async () => {
    const { next, reused } = await afterWriting(async (t) => {
      await writeEverywhere(t);
      const written = await snapshot(t.store);
      // The writes reached the tables the triggers keep, and moved every sequence.
      for (const table of ['assets', 'row_history', 'sync_runs', 'sync_run_streams', 'quarantine'])
        expect(written.rows[table]!.length).toBeGreaterThan(0);
      expect(Object.values(written.sequences).every((last) => last !== null)).toBe(true);
    });
    last = next;
    expect(reused).toBe(true);
    expect(await snapshot(next.store)).toEqual(fresh);
    await next.cleanup();
    last = undefined;
  });

  it('a table, view and index a test made of its own are dropped, and the database reused', async () => {
    const { next, reused } = await afterWriting(async (t) => {
      // Not a mirrored table (no raw, no row_hash): the store's next open leaves its history triggers alone.
      await sql`create table test_notes (id serial primary key, note text not null)`.execute(t.store.db);
      await sql`create view test_notes_view as select note from test_notes`.execute(t.store.db);
      await sql`insert into test_notes (note) values ('a'), ('b')`.execute(t.store.db);
      await sql`create index test_assets_code on assets (code)`.execute(t.store.db);
      await writeEverywhere(t);
    });
    last = next;
    expect(reused).toBe(true);
    expect(await snapshot(next.store)).toEqual(fresh);
    await next.cleanup();
    last = undefined;
  });

  it('a database whose seeded rows changed is dropped, never handed out again', async () => {
    const { next, reused } = await afterWriting(async (t) => {
      await sql`delete from catalog_streams where stream = (select min(stream) from catalog_streams)`.execute(t.store.db);
    });
    last = next;
    expect(reused).toBe(false);
    expect(await snapshot(next.store)).toEqual(fresh);
    await next.cleanup();
    last = undefined;
  });

  // A mirrored table of the test's own: the store's next open (openAnother) remakes every history trigger for it.
  const mirrored = { execute: (db: Store['db']) => createMirrorTable({ db, dialect: 'postgres' } as Store, 'test_items', ['id']) };
  it.each([
    ['a view dropped', sql`drop view v_alerts cascade`],
    ['a column added', sql`alter table assets add column extra text`],
    ['a mirrored table added', mirrored],
  ])('a database whose schema changed (%s) is dropped, never handed out again', async (_, change) => {
    const { next, reused } = await afterWriting(async (t) => void (await change.execute(t.store.db)));
    last = next;
    expect(reused).toBe(false);
    expect(await snapshot(next.store)).toEqual(fresh);
    await next.cleanup();
    last = undefined;
  });

  it('a database a session still holds after cleanup is dropped', async () => {
    const t = await openTestStore('postgres');
    const pg = await import('pg');
    const held = new pg.default.Client({ connectionString: t.url });
    await held.connect();
    held.on('error', () => {}); // the drop ends it
    await t.cleanup();
    const next = await openTestStore('postgres');
    last = next;
    expect(next.url).not.toBe(t.url);
    await held.end().catch(() => {});
    await next.cleanup();
    last = undefined;
  });
});
