// The usage ledger: every request sent, per quota family per UTC day, kept in the mirror's own database
// so every worker of one PostgreSQL shares one count, as the service does. A quota the service announced
// itself (a 429 saying the allowance is spent) is held per family until it renews. Development details
// fetched by a run are counted apart from its list records (they are requests of their own).
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../src/store/types.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('usage_ledger')
    .addColumn('family', t.text, (c) => c.notNull())
    .addColumn('day', t.text, (c) => c.notNull()) // YYYY-MM-DD, UTC
    .addColumn('requests', t.bigint, (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('usage_ledger_pk', ['family', 'day'])
    .execute();

  await db.schema
    .createTable('quota_holds')
    .addColumn('family', t.text, (c) => c.primaryKey())
    .addColumn('until', t.timestamp, (c) => c.notNull())
    .addColumn('reason', t.text, (c) => c.notNull())
    .addColumn('set_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .alterTable('sync_run_streams')
    .addColumn('details', t.integer, (c) => c.notNull().defaultTo(0))
    .execute();
}
