// The hash of every list page as last written, with the keys it held: a page served again byte for byte
// is skipped whole (no parse, no per-record work, no write), which is what makes an unchanged sync cheap.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../src/store/types.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('page_hashes')
    .addColumn('stream', 'text', (c) => c.notNull())
    .addColumn('variant', 'text', (c) => c.notNull())
    .addColumn('page', t.integer, (c) => c.notNull())
    .addColumn('request', 'text', (c) => c.notNull())
    .addColumn('body_hash', 'text', (c) => c.notNull())
    .addColumn('records', t.integer, (c) => c.notNull())
    .addColumn('keys', t.json, (c) => c.notNull())
    .addColumn('synced_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('page_hashes_pk', ['stream', 'variant', 'page'])
    .execute();
}
