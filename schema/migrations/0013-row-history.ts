// History without extra requests: when a mirrored row's content changes (its row_hash) or it is soft
// deleted, a trigger copies the previous version into row_history, inside the same transaction as
// the write (a page's), so an unchanged sync writes nothing and a crash keeps rows and history in step.
// history_settings is the switch per table (one table per stream) and its retention, read by the
// trigger; a table without a row keeps history forever. It starts empty, so a new store holds no rows.
// Once it also made each mirrored table's trigger. They are a repeatable object now (schema/history/,
// schema/repeatables.ts), made after the migrations from the tables of the day; frozen, this migration
// makes only the tables.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../../src/store/types.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('row_history')
    .addColumn('id', t.serial, (c) => c.primaryKey())
    .addColumn('table_name', t.text, (c) => c.notNull())
    .addColumn('row_key', t.text, (c) => c.notNull())
    .addColumn('raw', t.json, (c) => c.notNull())
    .addColumn('row_hash', t.text, (c) => c.notNull())
    .addColumn('first_seen_at', t.timestamp, (c) => c.notNull())
    .addColumn('valid_from', t.timestamp, (c) => c.notNull())
    .addColumn('valid_to', t.timestamp, (c) => c.notNull())
    .addColumn('change', t.text, (c) => c.notNull().check(sql`change in ('updated', 'deleted')`))
    .addColumn('run_id', t.bigint)
    .addColumn('ended_by_run_id', t.bigint)
    .execute();
  await db.schema.createIndex('row_history_row').on('row_history').columns(['table_name', 'row_key', 'valid_to']).execute();
  await db.schema.createIndex('row_history_valid_to').on('row_history').column('valid_to').execute();
  await db.schema.createIndex('row_history_ended_by_run').on('row_history').column('ended_by_run_id').execute();

  await db.schema
    .createTable('history_settings')
    .addColumn('table_name', t.text, (c) => c.primaryKey())
    .addColumn('enabled', t.boolean, (c) => c.notNull())
    .addColumn('retention_days', t.integer)
    .execute();
}
