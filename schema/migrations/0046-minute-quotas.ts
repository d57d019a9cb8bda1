// The per-minute allowance beside the day's and the month's: v_usage shows all three.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../src/store/types.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('usage_quotas').addColumn('per_minute', t.bigint).execute();
}
