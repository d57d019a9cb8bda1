// Token unlocks and monitoring intelligence (spec: Token-unlock asset, Monitoring: *), normalized so that
// analysts can join events to their assets, categories and developments in SQL.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../src/store/types.js';
import { mirrored } from '../columns.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await mirrored(
    db.schema
      .createTable('token_unlock_assets')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('serial_id', t.bigint)
      .addColumn('symbol', 'text')
      .addColumn('name', 'text')
      .addColumn('slug', 'text')
      .addColumn('genesis_date', t.timestamp)
      .addColumn('projected_end_date', t.timestamp)
      .addColumn('category', 'text')
      .addColumn('sector', 'text')
      .addColumn('tags', t.json)
      .addColumn('other_info', 'text'),
    t,
  ).execute();

  await mirrored(
    db.schema
      .createTable('monitoring_categories')
      .addColumn('slug', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text')
      .addColumn('description', 'text'),
    t,
  ).execute();

  await mirrored(
    db.schema
      .createTable('monitoring_subcategories')
      .addColumn('category_slug', 'text', (c) => c.notNull())
      .addColumn('slug', 'text', (c) => c.notNull())
      .addColumn('name', 'text')
      .addColumn('description', 'text')
      .addPrimaryKeyConstraint('monitoring_subcategories_pk', ['category_slug', 'slug']),
    t,
  ).execute();

  await mirrored(
    db.schema
      .createTable('monitoring_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('slug', 'text')
      .addColumn('title', 'text')
      .addColumn('summary', 'text')
      .addColumn('industry', 'text')
      .addColumn('development_count', t.integer)
      .addColumn('document_count', t.integer)
      .addColumn('importance', 'text')
      .addColumn('verified', t.boolean)
      .addColumn('actionable', t.boolean)
      .addColumn('governance', t.boolean)
      .addColumn('intel_categories', t.json)
      .addColumn('intel_subcategories', t.json)
      .addColumn('started_at', t.timestamp)
      .addColumn('ended_at', t.timestamp)
      .addColumn('created_at', t.timestamp)
      .addColumn('updated_at', t.timestamp),
    t,
  ).execute();
  await db.schema.createIndex('monitoring_events_started_at').on('monitoring_events').column('started_at').execute();

  // Children of an event, replaced whole whenever the event changes.
  await db.schema
    .createTable('monitoring_event_assets')
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('asset_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('slug', 'text')
    .addColumn('symbol', 'text')
    .addColumn('class', 'text')
    .addPrimaryKeyConstraint('monitoring_event_assets_pk', ['event_id', 'asset_id'])
    .execute();
  await db.schema.createIndex('monitoring_event_assets_asset').on('monitoring_event_assets').column('asset_id').execute();
  for (const [table, column] of [
    ['monitoring_event_categories', 'category_slug'],
    ['monitoring_event_subcategories', 'subcategory_slug'],
  ] as const) {
    await db.schema
      .createTable(table)
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn(column, 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, ['event_id', column])
      .execute();
  }

  // A development is first known from its event's summary (row_hash is the summary's hash); its detail
  // (documents, assets) is fetched separately and detail_fetched_at is null until that succeeds.
  await mirrored(
    db.schema
      .createTable('monitoring_developments')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('event_id', 'text')
      .addColumn('slug', 'text')
      .addColumn('title', 'text')
      .addColumn('summary', 'text')
      .addColumn('industry', 'text')
      .addColumn('importance', 'text')
      .addColumn('verified', t.boolean)
      .addColumn('actionable', t.boolean)
      .addColumn('governance', t.boolean)
      .addColumn('intel_categories', t.json)
      .addColumn('intel_subcategories', t.json)
      .addColumn('documents', t.json)
      .addColumn('assets', t.json)
      .addColumn('started_at', t.timestamp)
      .addColumn('ended_at', t.timestamp)
      .addColumn('created_at', t.timestamp)
      .addColumn('updated_at', t.timestamp)
      .addColumn('detail_fetched_at', t.timestamp),
    t,
  ).execute();
  await db.schema.createIndex('monitoring_developments_event').on('monitoring_developments').column('event_id').execute();

  await mirrored(
    db.schema
      .createTable('monitoring_views')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('slug', 'text')
      .addColumn('name', 'text')
      .addColumn('configuration_type', 'text')
      .addColumn('team_shared', t.boolean)
      .addColumn('is_owner', t.boolean)
      .addColumn('match_count_24h', t.integer)
      .addColumn('last_match_at', t.timestamp)
      .addColumn('evaluation_start_at', t.timestamp)
      .addColumn('asset_ids', t.json)
      .addColumn('asset_sectors', t.json)
      .addColumn('asset_subsectors', t.json)
      .addColumn('asset_pre_tge', t.boolean)
      .addColumn('verified', t.boolean)
      .addColumn('actionable', t.boolean)
      .addColumn('governance', t.boolean)
      .addColumn('asset_ecosystem_network_ids', t.json)
      .addColumn('intel_categories', t.json)
      .addColumn('intel_subcategories', t.json)
      .addColumn('minimum_importance', 'text'),
    t,
  ).execute();
}
