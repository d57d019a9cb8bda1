// Pass marks and the mirrored service's URL move out of stream_state, where they were kept under names
// no stream has (`monitoring-events:full-pass`, `monitoring-views:<view id>`, `mirror:service`): there
// they counted as streams with a pending checkpoint. The rows an upgraded mirror holds move over, so
// its next run knows when the last full pass ran and which service the mirror holds.
import type { Kysely } from 'kysely';
import type { ColumnTypes, Dialect } from '../../src/store/types.js';

const SERVICE = 'mirror:service';

export async function up(db: Kysely<any>, t: ColumnTypes, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('pass_marks')
    .addColumn('stream', t.text, (c) => c.notNull())
    .addColumn('part', t.text, (c) => c.notNull())
    .addColumn('full_pass_at', t.timestamp)
    .addColumn('high_water', t.timestamp)
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('pass_marks_pk', ['stream', 'part'])
    .execute();
  await db.schema
    .createTable('mirrored_service')
    .addColumn('base_url', t.text, (c) => c.primaryKey())
    .addColumn('claimed_at', t.timestamp, (c) => c.notNull())
    .execute();

  const pseudo = await db
    .selectFrom('stream_state')
    .select(['stream', 'checkpoint', 'updated_at'])
    .where('stream', 'like', '%:%')
    .execute();
  for (const row of pseudo) {
    const name = String(row.stream);
    const saved = parsed(row.checkpoint);
    if (name === SERVICE) {
      if (typeof saved.baseUrl === 'string')
        await db.insertInto('mirrored_service').values({ base_url: saved.baseUrl, claimed_at: row.updated_at }).execute();
      continue;
    }
    const at = name.indexOf(':');
    await db
      .insertInto('pass_marks')
      .values({
        stream: name.slice(0, at),
        part: name.slice(at + 1),
        full_pass_at: text(saved.fullAt),
        high_water: text(saved.highWater),
        updated_at: row.updated_at,
      })
      .execute();
  }
  await db.deleteFrom('stream_state').where('stream', 'like', '%:%').execute();
  // Their comments come with the repeatable objects (schema/repeatables.ts), after the migrations.
}

/** The checkpoint column's JSON (text on SQLite, and as the PostgreSQL driver is set to return it). */
function parsed(value: unknown): Record<string, unknown> {
  const json = typeof value === 'string' ? JSON.parse(value) : value;
  return json !== null && typeof json === 'object' ? (json as Record<string, unknown>) : {};
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
