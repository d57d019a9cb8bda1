// The service's shape as the mirror saw it, and what changed. `schema_fields` is each stream's known shape
// (every field path with the JSON types it came in), which the next pass compares itself with;
// `schema_changes` holds one row per change (a new field, a field gone, a field of another type), its
// first and last pass, and what the mirror did about it: a change seen again updates its row, never adds one.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../src/store/types.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('schema_fields')
    .addColumn('stream', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('json_types', 'text', (c) => c.notNull())
    .addColumn('share', t.double, (c) => c.notNull())
    .addColumn('first_seen_at', t.timestamp, (c) => c.notNull())
    .addColumn('last_seen_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('schema_fields_pk', ['stream', 'path'])
    .execute();
  await db.schema
    .createTable('schema_changes')
    .addColumn('stream', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('seen_type', 'text', (c) => c.notNull())
    .addColumn('expected_type', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('records', t.integer, (c) => c.notNull())
    .addColumn('share', t.double, (c) => c.notNull())
    .addColumn('example', 'text')
    .addColumn('first_seen_at', t.timestamp, (c) => c.notNull())
    .addColumn('last_seen_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('schema_changes_pk', ['stream', 'path', 'kind', 'seen_type'])
    .execute();
}
