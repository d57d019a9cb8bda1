// Two facts the deletion gate keeps between passes. A record served under a key that differs from a live
// row's only in case or spacing is not written beside it: it waits here, as served, until the original's
// deletion is confirmed (it then replaces it) or the original is served again (it is then forgotten).
// And each list's size at its last confirmed pass: a list that shrinks by small steps is measured against
// it, so that a slow drain is held like a sudden one.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../src/store/types.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('held_arrivals')
    .addColumn('stream', 'text', (c) => c.notNull())
    .addColumn('variant', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('record', 'text', (c) => c.notNull())
    .addColumn('held_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('held_arrivals_pk', ['stream', 'variant', 'key'])
    .execute();
  await db.schema
    .createTable('confirmed_sizes')
    .addColumn('stream', 'text', (c) => c.notNull())
    .addColumn('variant', 'text', (c) => c.notNull())
    .addColumn('confirmed_rows', t.integer, (c) => c.notNull())
    .addColumn('confirmed_at', t.timestamp, (c) => c.notNull())
    .addColumn('peak_rows', t.integer, (c) => c.notNull())
    .addPrimaryKeyConstraint('confirmed_sizes_pk', ['stream', 'variant'])
    .execute();
}
