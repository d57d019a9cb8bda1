// Column groups shared by the migrations: every mirrored table keeps the record as received, a hash that
// decides whether a re-fetched record is a change, and the three bookkeeping timestamps.
import type { CreateTableBuilder } from 'kysely';
import type { ColumnTypes } from '../src/store/types.js';

export function mirrored<T extends string>(table: CreateTableBuilder<T, any>, t: ColumnTypes): CreateTableBuilder<T, any> {
  return table
    .addColumn('raw', t.json, (c) => c.notNull())
    .addColumn('row_hash', 'text', (c) => c.notNull())
    .addColumn('first_seen_at', t.timestamp, (c) => c.notNull())
    .addColumn('synced_at', t.timestamp, (c) => c.notNull())
    .addColumn('deleted_at', t.timestamp);
}
