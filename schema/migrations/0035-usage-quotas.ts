// The plan's quotas beside the usage ledger: each run records the quotas it ran under, per family and
// UTC day, so `v_usage` answers "how much of my plan did I use" without numbers typed in by hand.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../src/store/types.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('usage_quotas')
    .addColumn('family', t.text, (c) => c.notNull())
    .addColumn('day', t.text, (c) => c.notNull()) // YYYY-MM-DD, UTC, as usage_ledger
    .addColumn('per_day', t.bigint)
    .addColumn('per_month', t.bigint)
    .addColumn('set_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_quotas_pk', ['family', 'day'])
    .execute();
}
