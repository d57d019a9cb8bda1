// One time form in the base tables too: monitoring times were stored on SQLite as the API wrote them
// (no milliseconds) while the mirror's own have them, so `alert_history.matched_at =
// monitoring_developments.started_at` matched nothing there. Existing rows are rewritten in the one form
// (ISO 8601 UTC with milliseconds); PostgreSQL's timestamptz columns have a single form already.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes, Dialect } from '../../src/store/types.js';

const TIME_COLUMNS: Record<string, readonly string[]> = {
  monitoring_events: ['started_at', 'ended_at'],
  monitoring_developments: ['started_at', 'ended_at', 'created_at', 'updated_at'],
  monitoring_views: ['last_match_at', 'evaluation_start_at'],
  alert_history: ['matched_at'],
};

export async function up(db: Kysely<any>, _t: ColumnTypes, dialect: Dialect): Promise<void> {
  if (dialect !== 'sqlite') return;
  for (const [table, columns] of Object.entries(TIME_COLUMNS)) {
    for (const column of columns) {
      // strftime reads any ISO 8601 time with a zone and writes it in UTC with milliseconds; text that is
      // not a time (strftime gives null) is kept as it was.
      await sql
        .raw(
          `update ${table} set ${column} = coalesce(strftime('%Y-%m-%dT%H:%M:%fZ', ${column}), ${column}) ` +
            `where ${column} is not null and ${column} not like '____-__-__T__:__:__.___Z'`,
        )
        .execute(db);
    }
  }
}
