// Which scheduled job started a run, so a restarted daemon still knows each job's last success.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sync_runs').addColumn('job', 'text').execute();
  await db.schema.createIndex('sync_runs_job').on('sync_runs').columns(['job', 'id']).execute();
}
