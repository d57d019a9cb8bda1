// The engine's own tables: run records, per-stream state and checkpoints, quarantine, leases.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../src/store/types.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('sync_runs')
    .addColumn('id', t.serial, (c) => c.primaryKey())
    .addColumn('started_at', t.timestamp, (c) => c.notNull())
    .addColumn('finished_at', t.timestamp)
    .addColumn('mode', t.text, (c) => c.notNull())
    .addColumn('streams', t.json, (c) => c.notNull())
    .addColumn('outcome', t.text) // null while running
    .execute();

  await db.schema
    .createTable('sync_run_streams')
    .addColumn('run_id', t.bigint, (c) => c.notNull().references('sync_runs.id').onDelete('cascade'))
    .addColumn('stream', t.text, (c) => c.notNull())
    .addColumn('fetched', t.integer, (c) => c.notNull().defaultTo(0))
    .addColumn('inserted', t.integer, (c) => c.notNull().defaultTo(0))
    .addColumn('updated', t.integer, (c) => c.notNull().defaultTo(0))
    .addColumn('unchanged', t.integer, (c) => c.notNull().defaultTo(0))
    .addColumn('deleted', t.integer, (c) => c.notNull().defaultTo(0))
    .addColumn('errors', t.integer, (c) => c.notNull().defaultTo(0))
    .addColumn('requests', t.integer, (c) => c.notNull().defaultTo(0))
    .addColumn('duration_ms', t.integer, (c) => c.notNull().defaultTo(0))
    .addColumn('outcome', t.text, (c) => c.notNull())
    .addColumn('error', t.text)
    .addPrimaryKeyConstraint('sync_run_streams_pk', ['run_id', 'stream'])
    .execute();

  await db.schema
    .createTable('stream_state')
    .addColumn('stream', t.text, (c) => c.primaryKey())
    .addColumn('checkpoint', t.json) // null when the last pass completed
    .addColumn('high_water', t.text)
    .addColumn('last_success_at', t.timestamp)
    .addColumn('last_error', t.text)
    .addColumn('last_run_id', t.bigint)
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('quarantine')
    .addColumn('id', t.serial, (c) => c.primaryKey())
    .addColumn('stream', t.text, (c) => c.notNull())
    .addColumn('reason', t.text, (c) => c.notNull())
    .addColumn('record', t.json)
    .addColumn('seen_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('quarantine_stream_idx').on('quarantine').columns(['stream', 'seen_at']).execute();

  await db.schema
    .createTable('leases')
    .addColumn('name', t.text, (c) => c.primaryKey())
    .addColumn('owner', t.text, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .execute();
}
