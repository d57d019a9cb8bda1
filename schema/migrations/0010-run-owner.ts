// Who runs a sync run (host:pid:random, as its leases), so the next run can tell a run whose process
// died (its row left open forever) from one still running elsewhere, and mark only the first interrupted.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sync_runs').addColumn('owner', 'text').execute();
}
