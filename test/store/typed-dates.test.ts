// @end-to-end
// (For its bound, not a sync: each case replays the mirror's migrations and makes its views, comments and
// history triggers, about a second of CPU between the test and the server, over a unit's 20 s at load 40.)
// Dates are typed as dates on PostgreSQL (migration 0040): market_stats.date, sec_filings.filing_date and
// the usage tables' day were text there. An upgrade converts the rows a mirror holds (a value that is not a
// date becomes null, its record's raw keeps it); SQLite keeps the same YYYY-MM-DD text. Both stores read a
// date back as the same YYYY-MM-DD string, and the mapping writes a served time as its day.
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { isoDateOf } from '../../src/catalog/mapping.js';
import { toRow } from '../../src/sync/row-mapping.js';
import { MIGRATIONS_DIR } from '../../src/mirror-schema/index.js';
import { POSTGRES_COLUMN_TYPES } from '../../src/store/postgres/postgres-adapter.js';
import { ColumnTypesMigrationProvider, schemaMigrator } from '../../src/store/run-migrations.js';
import { SQLITE_COLUMN_TYPES } from '../../src/store/sqlite/sqlite-adapter.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const COLUMN_TYPES = { sqlite: SQLITE_COLUMN_TYPES, postgres: POSTGRES_COLUMN_TYPES };
const NOW = '2026-11-01T08:00:00.000Z';

describe('a date field', () => {
  const columns = { day: isoDateOf('date') };
  const date = (record: unknown) => toRow(record, columns).day;
  it('keeps the served day, reads another time as UTC, and keeps what is not a time', () => {
    expect(date({ date: '2025-05-31' })).toBe('2025-05-31');
    expect(date({ date: '2025-05-31T23:30:00-05:00' })).toBe('2025-05-31');
    expect(date({ date: 'May 31, 2025 23:30 UTC' })).toBe('2025-05-31');
    expect(date({ date: 'yesterday' })).toBe('yesterday');
    expect(date({ date: null })).toBeNull();
    expect(date({})).toBeNull();
  });
});

describe.each(dialects)('dates on %s', (dialect) => {
  let t: TestStore;
  afterEach(() => t.cleanup());

  it('an upgrade types the date columns and keeps their days; both stores read them as YYYY-MM-DD', async () => {
    t = await openTestStore(dialect, { migrate: false });
    const provider = new ColumnTypesMigrationProvider(MIGRATIONS_DIR, { dialect, columnTypes: COLUMN_TYPES[dialect], schema: t.schema });
    const migrator = schemaMigrator(t.store.db, provider, t.store.adapter);
    expect((await migrator.migrateTo('0037-run-notices')).error).toBeUndefined();

    const mirrored = { raw: '{}', row_hash: 'h', first_seen_at: NOW, synced_at: NOW };
    await t.store.db
      .insertInto('market_stats')
      .values([
        { id: 1, date: '2025-05-31', ...mirrored },
        { id: 2, date: '2025-06-01T00:00:00Z', ...mirrored },
        { id: 3, date: 'not a date', ...mirrored },
      ])
      .execute();
    await t.store.db
      .insertInto('sec_filings')
      .values({ accession_number: 'a-1', filing_date: '2025-04-02', ...mirrored })
      .execute();
    await t.store.db.insertInto('usage_ledger').values({ family: 'v1', day: '2026-11-01', requests: 7 }).execute();

    expect((await t.store.migrate()).error).toBeUndefined();

    const stats = await t.store.db.selectFrom('market_stats').select(['id', 'date']).orderBy('id').execute();
    expect(stats).toEqual([
      { id: 1, date: '2025-05-31' },
      { id: 2, date: dialect === 'postgres' ? '2025-06-01' : '2025-06-01T00:00:00Z' },
      { id: 3, date: dialect === 'postgres' ? null : 'not a date' },
    ]);
    expect(await t.store.db.selectFrom('sec_filings').select('filing_date').execute()).toEqual([{ filing_date: '2025-04-02' }]);
    // The ledger's day still answers the gate's text comparisons.
    const ledger = await t.store.db.selectFrom('usage_ledger').select(['day', 'requests']).where('day', '>=', '2026-11-01').execute();
    expect(ledger).toEqual([{ day: '2026-11-01', requests: 7 }]);

    expect(await columnTypes(t)).toEqual(
      dialect === 'postgres'
        ? ['market_stats.date date', 'sec_filings.filing_date date', 'usage_ledger.day date', 'usage_quotas.day date']
        : ['market_stats.date TEXT', 'sec_filings.filing_date TEXT', 'usage_ledger.day TEXT', 'usage_quotas.day TEXT'],
    );
  });
});

const DATE_COLUMNS = [
  ['market_stats', 'date'],
  ['sec_filings', 'filing_date'],
  ['usage_ledger', 'day'],
  ['usage_quotas', 'day'],
] as const;

/** `table.column type` of each date column, as the store declares it. */
async function columnTypes(t: TestStore): Promise<string[]> {
  const types: string[] = [];
  for (const [table, column] of DATE_COLUMNS) {
    const query =
      t.store.dialect === 'postgres'
        ? sql<{ type: string }>`select data_type as type from information_schema.columns
            where table_schema = ${t.schema!} and table_name = ${table} and column_name = ${column}`
        : sql<{ type: string }>`select type from pragma_table_info(${table}) where name = ${column}`;
    const { rows } = await query.execute(t.store.db);
    types.push(`${table}.${column} ${rows[0]?.type}`);
  }
  return types;
}
