// A complete pass that would delete an unusual share of a list, or that saw its list move or lie, deletes
// nothing on its own word. What it held back is kept here so that a later complete pass can agree (the
// same keys still missing, hours later) or the operator can confirm; `status` reads the reasons.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../src/store/types.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('held_deletions')
    .addColumn('stream', 'text', (c) => c.notNull())
    .addColumn('variant', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('held_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('held_deletions_pk', ['stream', 'variant', 'key'])
    .execute();
  await db.schema
    .createTable('deletion_holds')
    .addColumn('stream', 'text', (c) => c.notNull())
    .addColumn('variant', 'text', (c) => c.notNull())
    .addColumn('held_rows', t.integer, (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('deletion_holds_pk', ['stream', 'variant'])
    .execute();
}
