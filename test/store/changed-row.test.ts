// The changed-row rule in JS and in SQL must agree: the SQL form is run on each store against the
// same stored/incoming pairs the JS form is asked about.
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { rowChanged, rowChangedSql } from '../../src/store/changed-row.js';
import { analystSql } from '../../src/store/dialects.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const CASES = [
  { stored: { row_hash: 'a', deleted_at: null }, incoming: 'a', changed: false },
  { stored: { row_hash: 'a', deleted_at: null }, incoming: 'b', changed: true },
  { stored: { row_hash: 'a', deleted_at: '2026-01-01T00:00:00.000Z' }, incoming: 'a', changed: true },
  { stored: { row_hash: null, deleted_at: null }, incoming: 'a', changed: true },
] as const;

describe('rowChanged', () => {
  it('writes a new key, a new hash or a soft-deleted row, and nothing else', () => {
    expect(rowChanged(undefined, 'a')).toBe(true);
    for (const c of CASES) expect(rowChanged(c.stored, c.incoming)).toBe(c.changed);
    // Tables without soft deletes (fanout_parents) compare the hash alone.
    expect(rowChanged({ row_hash: 'a' }, 'a')).toBe(false);
  });
});

for (const dialect of dialects) {
  describe(`rowChangedSql (${dialect})`, () => {
    let t: TestStore;
    afterEach(() => t.cleanup());

    it('agrees with rowChanged on every case', async () => {
      t = await openTestStore(dialect, { migrate: false });
      for (const c of CASES) {
        const predicate = sql.raw(rowChangedSql(analystSql(dialect), 's', 'i'));
        const { rows } = await sql<{ changed: unknown }>`
          select case when ${predicate} then 1 else 0 end as changed
          from (select ${c.stored.row_hash} as row_hash, ${c.stored.deleted_at} as deleted_at) as s,
               (select ${c.incoming} as row_hash) as i`.execute(t.store.db);
        expect({ ...c, changed: Number(rows[0]!.changed) === 1 }).toEqual(c);
      }
    });
  });
}
