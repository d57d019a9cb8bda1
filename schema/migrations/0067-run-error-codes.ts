// A failed pass's stable error code beside its message (`DS_DRIFT`: the service changed its shape), where runs
// are recorded and in the stream's state, so `status` says why a stream failed without parsing the message.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../src/store/types.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('sync_run_streams').addColumn('error_code', t.text).execute();
  await db.schema.alterTable('stream_state').addColumn('last_error_code', t.text).execute();
}
