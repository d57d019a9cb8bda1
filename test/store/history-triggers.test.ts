// @end-to-end
// The history triggers are a repeatable object (schema/repeatables.ts), on both stores: made after the
// migrations from each mirrored table's columns of the day, and made again on the next open when one is
// dropped by hand, when a new migration adds a column to a mirrored table (its versions then keep it in
// typed_row), or when an older release made them; history_settings outlive them, and the first write
// after an open is kept. Which tables keep typed_row is checked against the versions views that read it.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mirroredTables } from '../../schema/history/triggers.js';
import { liftedFromRaw, streamTables } from '../../src/catalog/index.js';
import { ANALYST_VIEWS } from '../../schema/views/index.js';
import { analystSql } from '../../src/store/dialects.js';
import type { Store } from '../../src/store/index.js';
import { runMigrations } from '../../src/store/run-migrations.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { MIGRATIONS_DIR, MIRROR_SCHEMA } from '../../src/mirror-schema/index.js';

const TRIGGER = { name: 'chains_keep_history', table: 'chains' };

const UPDATED = '2025-12-31T00:00:00.000Z';

/** A chain written as a sync writes it, then changed (a new row_hash): its first version goes to row_history. */
async function changeChain(store: Store, extra: Record<string, unknown> = {}): Promise<void> {
  const row = { id: 1, slug: 'one', title: 'One', updated_at: UPDATED, raw: '{"id":1}', row_hash: 'a', ...extra };
  const at = '2026-01-01T00:00:00.000Z';
  await store.db
    .insertInto('chains')
    .values({ ...row, first_seen_at: at, synced_at: at })
    .execute();
  await store.db.updateTable('chains').set({ row_hash: 'b', synced_at: '2026-01-02T00:00:00.000Z' }).where('id', '=', 1).execute();
}

/** The typed_row of each version row_history kept of chains. */
async function keptChains(store: Store): Promise<unknown[]> {
  const rows = await store.db.selectFrom('row_history').select('typed_row').where('table_name', '=', 'chains').execute();
  const typed = rows.map((r) => (typeof r.typed_row === 'string' ? JSON.parse(r.typed_row) : r.typed_row));
  // A time kept as PostgreSQL's jsonb writes it (`+00:00`), in the one form to compare.
  return typed.map((t) => (t?.updated_at ? { ...t, updated_at: new Date(t.updated_at).toISOString() } : t));
}

async function triggerNames(store: Store): Promise<string[]> {
  return (await analystSql(store.dialect).listTriggers(store.db)).map((t) => t.name).sort();
}

/** The mirror's migrations and one more (`name`, its source): a folder made for one test (its path ends in /). */
function migrationsPlus(name: string, source: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-migrations-'));
  for (const file of readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.ts'))) {
    writeFileSync(join(dir, file), `export { up } from '${pathToFileURL(join(MIGRATIONS_DIR, file)).href}';\n`);
  }
  writeFileSync(join(dir, `${name}.ts`), source);
  return `${dir}/`;
}

for (const dialect of dialects) {
  describe(`history triggers (${dialect})`, () => {
    const cleanups: (() => Promise<void> | void)[] = [];
    afterEach(async () => {
      while (cleanups.length) await cleanups.pop()!();
    });
    const open = async (): Promise<TestStore> => {
      const t = await openTestStore(dialect);
      cleanups.push(() => t.cleanup());
      return t;
    };

    // The first two cases only read a fresh install: one store for both.
    let fresh: TestStore;
    beforeAll(async () => {
      fresh = await openTestStore(dialect);
    });
    afterAll(() => fresh?.cleanup());

    it('a fresh install has one on every mirrored table, in the ledger', async () => {
      const t = fresh;
      const mirrored = await mirroredTables(t.store.db, dialect);
      expect(mirrored.length).toBeGreaterThan(20);
      expect(await triggerNames(t.store)).toEqual(expect.arrayContaining(mirrored.map((m) => `${m.name}_keep_history`)));
      const ledger = await t.store.db.selectFrom('schema_objects').select('name').where('name', '=', 'history-triggers').execute();
      expect(ledger).toHaveLength(1);
    });

    it("a table's versions keep typed_row exactly when its versions view reads it", async () => {
      const t = fresh;
      const names = (await mirroredTables(t.store.db, dialect)).map((m) => m.name);
      const readByView = names.filter((name) =>
        ANALYST_VIEWS.some(
          (v) => v.versionsOf === name && v.sql(analystSql(dialect), { streamTables: streamTables() }).includes('typed_row'),
        ),
      );
      expect(readByView.length).toBeGreaterThan(10);
      expect(names.filter((name) => !liftedFromRaw().has(name))).toEqual(readByView);
    });

    it('one dropped by hand is made again on the next open, before its first write', async () => {
      const t = await open();
      await analystSql(dialect).runAll(t.store.db, analystSql(dialect).dropRowTrigger(TRIGGER));
      expect(await triggerNames(t.store)).not.toContain(TRIGGER.name);

      const again = await t.openAnother();
      expect(await triggerNames(again)).toContain(TRIGGER.name);
      await changeChain(again);
      expect(await keptChains(again)).toEqual([{ id: 1, slug: 'one', title: 'One', updated_at: UPDATED }]);
    });

    it('a column a new migration adds to a mirrored table is kept in typed_row', async () => {
      const t = await open();
      const dir = migrationsPlus(
        '9999-chain-rank',
        `export async function up(db, t) { await db.schema.alterTable('chains').addColumn('rank', t.integer).execute(); }\n`,
      );
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      const outcome = await runMigrations(t.store.db, t.store.adapter, { ...MIRROR_SCHEMA, folder: dir });
      expect(outcome).toEqual({ results: [{ name: '9999-chain-rank', status: 'Success' }] });

      await changeChain(t.store, { rank: 7 });
      expect(await keptChains(t.store)).toEqual([{ id: 1, slug: 'one', title: 'One', updated_at: UPDATED, rank: 7 }]);
    });

    it('a column added by hand changes the definition: the trigger is made again on the next open', async () => {
      const t = await open();
      await sql.raw('alter table chains add column rank integer').execute(t.store.db);
      const again = await t.openAnother();
      await changeChain(again, { rank: 7 });
      expect(await keptChains(again)).toEqual([{ id: 1, slug: 'one', title: 'One', updated_at: UPDATED, rank: 7 }]);
    });

    it("an older release's triggers (no typed_row, not in the ledger) are replaced by today's", async () => {
      const t = await open();
      const d = analystSql(dialect);
      const old = d.rowTrigger({
        ...TRIGGER,
        when: 'old.deleted_at is null',
        guard: d.onUnlessOff(`(select enabled from history_settings where table_name = 'chains')`),
        statement: `insert into row_history (table_name, row_key, raw, row_hash, first_seen_at, valid_from, valid_to, change)
          values ('chains', ${d.asText('old.id')}, old.raw, old.row_hash, old.first_seen_at, old.synced_at, new.synced_at, 'updated')`,
      });
      await d.runAll(t.store.db, [...d.dropRowTrigger(TRIGGER), ...old]);
      await t.store.db.deleteFrom('schema_objects').where('name', '=', 'history-triggers').execute();

      const again = await t.openAnother();
      await changeChain(again);
      expect(await keptChains(again)).toEqual([{ id: 1, slug: 'one', title: 'One', updated_at: UPDATED }]);
    });

    it('history_settings outlive a remade trigger: a table turned off stays off', async () => {
      const t = await open();
      await t.store.db
        .insertInto('history_settings')
        .values({ table_name: 'chains', enabled: t.store.adapter.toDb(false) as boolean, retention_days: 3 })
        .execute();
      await analystSql(dialect).runAll(t.store.db, analystSql(dialect).dropRowTrigger(TRIGGER));

      const again = await t.openAnother();
      expect(await triggerNames(again)).toContain(TRIGGER.name);
      await changeChain(again);
      expect(await keptChains(again)).toEqual([]);
      const settings = await again.db.selectFrom('history_settings').select(['table_name', 'retention_days']).execute();
      expect(settings.map((s) => [s.table_name, Number(s.retention_days)])).toEqual([['chains', 3]]);
    });
  });
}
