// The shared minute: workers of one PostgreSQL database pace each API family together, as the service
// counts them together. One row per family holds when the family's next request may start (by the
// database's clock, so the workers' own clocks do not matter); each request advances it by one interval.
// Frozen: its comments are written here as text, not read from today's data dictionary.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes, Dialect } from '../../src/store/types.js';

export async function up(db: Kysely<any>, t: ColumnTypes, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('pace_slots')
    .addColumn('family', t.text, (c) => c.primaryKey())
    .addColumn('next_at', t.timestamp, (c) => c.notNull())
    .execute();
  if (dialect !== 'postgres') return;
  await sql`comment on table pace_slots is ${sql.lit(
    "The per-minute pace every worker of one PostgreSQL database shares: when each API family's next request may start, by the database's clock (unused on SQLite).",
  )}`.execute(db);
  await sql`comment on column pace_slots.family is ${sql.lit("Quota family: 'v1' (with charts), 'tokenUnlocks', 'monitoring' or 'open'.")}`.execute(
    db,
  );
  await sql`comment on column pace_slots.next_at is ${sql.lit(
    'When the next request of the family may start; each request moves it one interval on (the minute over the requests a minute).',
  )}`.execute(db);
}
