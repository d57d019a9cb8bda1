// Indexes that let the analyst views read an index alone where they read table rows, found in the plans
// of SQLite 3.40 (Debian 12, Python) at scale 10:
// - Views that join a child of monitoring_events (v_event_assets, v_event_categories) keep the live
//   events only (`e.deleted_at is null`). deleted_at is stored after raw (an event's raw is ~5 KB, on
//   overflow pages), so a lookup by id through the primary key read every overflow page of the event to
//   reach it: grouping 28,000 event assets took 0.44 s (example 05); with the id and deleted_at in one
//   index, 0.23 s. The partial index on live ids (0006) would do the same, but SQLite chooses it only
//   with statistics the mirror does not keep.
// - v_alerts_per_day groups alert_days by day: with the count in an index in that order, it reads no
//   table row (35,000 lookups of a row by rowid were half its count's 0.2 s). It replaces the index on
//   matched_on alone (0061), its first column, so a write to alert_days still updates two indexes.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('monitoring_events_id_live').on('monitoring_events').columns(['id', 'deleted_at']).execute();
  await db.schema
    .createIndex('alert_days_by_day')
    .on('alert_days')
    .columns(['matched_on', 'view_id', 'view_name', 'source', 'known_by', 'alerts'])
    .execute();
  await db.schema.dropIndex('alert_days_matched_on').execute();
}
