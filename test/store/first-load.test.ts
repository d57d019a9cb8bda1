// @end-to-end
// A first load into an empty `assets` leaves its secondary indexes out and builds them at its end
// (src/store/sqlite/sqlite-first-load.ts); a CLI killed mid-load never gets there, so the next writable
// open makes them again (the repeatable `deferred-indexes`), and so does the next pass of a process that
// kept the store open. Each time the index is the migrations' own (same text, `integrity_check` finds its
// entries equal to the rows) and the rows are those of an uninterrupted sync. PostgreSQL leaves none out
// (the same names, its own definitions): the same runs end with the same rows and indexes.
// The crosswalk's insert trigger on `assets`, set aside for the same load while the crosswalk is empty
// (src/store/sqlite/sqlite-idle-triggers.ts), comes back the same ways, as the migrations' text.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import type { Store } from '../../src/store/index.js';
import { DEFERRED_INDEXES } from '../../src/store/sqlite/sqlite-first-load.js';
import { CROSSWALK_ASSETS_INSERT } from '../../src/store/sqlite/sqlite-crosswalk-trigger.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { syncOnce, tableSnapshot } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { killCliSyncMidList } from '../helpers/killed-cli-sync.js';

/** The deferred indexes the store holds now, by name → definition (PostgreSQL's by the same names). */
async function indexDefs(store: Store): Promise<Record<string, string>> {
  const names = sql.join(DEFERRED_INDEXES.map((i) => i.name));
  const query =
    store.dialect === 'sqlite'
      ? sql<{ name: string; def: string }>`select name, sql as def from sqlite_master where type = 'index' and name in (${names})`
      : sql<{
          name: string;
          def: string;
        }>`select indexname as name, indexdef as def from pg_indexes where schemaname = current_schema() and indexname in (${names})`;
  const { rows } = await query.execute(store.db);
  return Object.fromEntries(rows.map((r) => [r.name, r.def]).sort());
}

const ALL = Object.fromEntries(DEFERRED_INDEXES.map((i) => [i.name, i.sql]).sort());

/** The crosswalk's insert trigger on `assets` as SQLite holds it ('missing' when left out); PostgreSQL keeps its own, never set aside. */
async function insertTrigger(store: Store): Promise<string | null> {
  if (store.dialect !== 'sqlite') return null;
  const { rows } = await sql<{
    sql: string;
  }>`select sql from sqlite_master where type = 'trigger' and name = 'asset_crosswalk_assets_insert'`.execute(store.db);
  return rows[0]?.sql ?? 'missing';
}
const TRIGGER = (dialect: string) => (dialect === 'sqlite' ? CROSSWALK_ASSETS_INSERT : null);

async function integrity(store: Store): Promise<string> {
  const { rows } = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(store.db);
  return rows.map((r) => r.integrity_check).join('; ');
}

/** Whether the CLI has committed pages of the token class (300 assets). */
async function pagesCommitted(test: TestStore): Promise<boolean> {
  const held = await test.store.db
    .selectFrom('assets')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(held?.n ?? 0) >= 300;
}

for (const dialect of dialects) {
  describe(`a first load's indexes (${dialect})`, () => {
    let sandbox: Sandbox;
    let clean: TestStore;
    let fresh: Record<string, string>;
    let cleanOutcome: string;

    beforeAll(async () => {
      sandbox = await startSandbox({ start: PINNED_START, scale: 0.5, seed: 11 });
      clean = await openTestStore(dialect);
      fresh = await indexDefs(clean.store);
      // One the load keeps (the live keys), found missing in the empty table (a killed load of an earlier
      // version left it out): made at the load's start, so the checks below find it too.
      for (const i of dialect === 'sqlite' ? DEFERRED_INDEXES.filter((d) => d.keptDuringLoad) : [])
        await sql.raw(`drop index ${i.name}`).execute(clean.store.db);
      cleanOutcome = (await syncOnce(clean.store, sandbox, ['assets'])).outcome;
    });
    afterAll(async () => {
      await clean?.cleanup();
      await sandbox?.close();
    });

    it("are the migrations' own, and built at the end of an uninterrupted first load", async () => {
      expect(cleanOutcome).toBe('success');
      expect(Object.keys(fresh)).toEqual(Object.keys(ALL));
      // On SQLite, the very text that restores them.
      expect(fresh).toEqual(dialect === 'sqlite' ? ALL : await indexDefs(clean.store));
      expect(await indexDefs(clean.store)).toEqual(fresh);
      // The trigger's text in a new file is the one that restores it, and it is there after the load.
      expect(await insertTrigger(clean.store)).toBe(TRIGGER(dialect));
      if (dialect === 'sqlite') expect(await integrity(clean.store)).toBe('ok');
      else expect(Object.keys(await indexDefs(clean.store))).toHaveLength(DEFERRED_INDEXES.length);
    });

    it('left out by a CLI killed mid-load come back at the next open, and at the next pass of a store kept open', async () => {
      const test = await openTestStore(dialect);
      // Mid-load (pages committed, the list not read to its end), and once killed: left out on SQLite only.
      // (SQLite keeps the one the load itself reads, its live keys.)
      const kept = Object.fromEntries(DEFERRED_INDEXES.filter((i) => i.keptDuringLoad).map((i) => [i.name, i.sql]));
      const leftOut = dialect === 'sqlite' ? kept : fresh;
      try {
        await killCliSyncMidList(
          test,
          sandbox,
          ['assets'],
          () => pagesCommitted(test),
          async () => {
            expect(await indexDefs(test.store)).toEqual(leftOut);
            // Out across the load's transactions on SQLite (the crosswalk is empty), not only inside one.
            expect(await insertTrigger(test.store)).toBe(dialect === 'sqlite' ? 'missing' : null);
          },
        );
        expect(await indexDefs(test.store)).toEqual(leftOut);
        expect(await insertTrigger(test.store)).toBe(dialect === 'sqlite' ? 'missing' : null);
        const reopened = await test.openAnother();
        expect(await indexDefs(reopened)).toEqual(fresh);
        expect(await insertTrigger(reopened)).toBe(TRIGGER(dialect));
        if (dialect === 'sqlite') expect(await integrity(reopened)).toBe('ok');
        else expect(await indexDefs(test.store)).toEqual(fresh);
        // A load killed while this process kept the store open: its next pass over the table builds them.
        for (const i of dialect === 'sqlite' ? DEFERRED_INDEXES : []) await sql.raw(`drop index ${i.name}`).execute(test.store.db);
        if (dialect === 'sqlite') await sql`drop trigger asset_crosswalk_assets_insert`.execute(test.store.db);
        expect(await indexDefs(test.store)).toEqual(dialect === 'sqlite' ? {} : fresh);
        expect((await syncOnce(test.store, sandbox, ['assets'])).outcome).toBe('success');
        expect(await indexDefs(test.store)).toEqual(fresh);
        expect(await insertTrigger(test.store)).toBe(TRIGGER(dialect));
        if (dialect === 'sqlite') expect(await integrity(test.store)).toBe('ok');
        else expect(await indexDefs(reopened)).toEqual(fresh);
        expect(await tableSnapshot(test.store, 'assets')).toEqual(await tableSnapshot(clean.store, 'assets'));
      } finally {
        await test.cleanup();
      }
    });
  });
}
