// On SQLite, the crosswalk's triggers on `assets` (0060) run their recomputation only when the
// crosswalk holds a source whose keys meet the asset's old or new slug, code or title: the same rows
// the recomputation would select (its `where`), looked up through the crosswalk's indexes first. A
// first `/v1` sync inserts 20,000 assets at scale 10 while the crosswalk is empty or meets few of
// them, and each insert ran the whole recomputation (unions, windows, temporary b-trees) to link
// nothing: measured on those inserts alone, 1.48 s of CPU against 0.54 s before the crosswalk; 1.07 s
// with this guard (the rest: the trigger's presence, for which SQLite keeps a statement journal per
// insert, and the two indexes 0047 added). What the triggers write is unchanged. PostgreSQL's
// triggers run once per statement already.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes, Dialect } from '../../src/store/types.js';

/** The rows (`new`, `old`) each trigger reads of the asset it fires for, as 0060's recomputation does. */
const ROWS = { insert: ['new'], update: ['old', 'new'], delete: ['old'] } as const;

export async function up(db: Kysely<any>, _t: ColumnTypes, dialect: Dialect): Promise<void> {
  if (dialect !== 'sqlite') return;
  for (const [op, rows] of Object.entries(ROWS)) {
    const name = `asset_crosswalk_assets_${op}`;
    const found = await sql<{ sql: string }>`select sql from sqlite_master where type = 'trigger' and name = ${name}`.execute(db);
    const text = found.rows[0]?.sql;
    if (!text) throw new Error(`migration 0064: trigger ${name} is missing`);
    const meets = rows.map((r) => `x.source_slug = ${r}.slug or x.symbol_key = lower(${r}.code) or x.name_key = lower(${r}.title)`);
    const guard = `exists (select 1 from asset_crosswalk x where ${meets.join(' or ')})`;
    const guarded = text.replace(
      /for each row(?:\s+when\s+([\s\S]*?))?\s+begin\b/i,
      (_m, when: string | undefined) => `for each row\n  when ${when ? `(${when}) and ` : ''}${guard}\nbegin`,
    );
    if (guarded === text) throw new Error(`migration 0064: trigger ${name} has an unexpected form`);
    await sql.raw(`drop trigger ${name}`).execute(db);
    await sql.raw(guarded).execute(db);
  }
}
