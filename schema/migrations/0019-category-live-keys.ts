// The category taxonomy became a catalog list (subcategories its child table): deletion detection reads
// the live keys of both tables after every pass, as it does for every other list (0006), so they get the
// same partial index. test/sync/catalog-schema.test.ts checks every catalog table has one.
import { sql, type Kysely } from 'kysely';

const LIVE_KEYS: readonly [table: string, columns: readonly string[]][] = [
  ['monitoring_categories', ['slug']],
  ['monitoring_subcategories', ['category_slug', 'slug']],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [table, columns] of LIVE_KEYS) {
    await db.schema
      .createIndex(`${table}_live_keys`)
      .on(table)
      .columns([...columns])
      .where(sql.ref('deleted_at'), 'is', null)
      .execute();
  }
}
