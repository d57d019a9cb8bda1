// Reads every row of a table or view in batches, so an export's memory stays flat at any size:
// SQLite iterates one statement (better-sqlite3's iterate), PostgreSQL fetches from a server-side
// cursor inside a read-only transaction (one consistent snapshot).
import { sql } from 'kysely';
import type { Store } from '../store/types.js';

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

export async function* readBatches(store: Store, relation: string, batchRows: number): AsyncGenerator<Record<string, unknown>[]> {
  if (store.dialect === 'sqlite') {
    let batch: Record<string, unknown>[] = [];
    for await (const row of store.db.selectFrom(relation).selectAll().stream(batchRows)) {
      batch.push(row as Record<string, unknown>);
      if (batch.length >= batchRows) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
    return;
  }
  yield* postgresBatches(store, relation, batchRows);
}

/** A transaction held by hand (a generator cannot yield from inside transaction().execute()'s callback). */
async function* postgresBatches(store: Store, relation: string, batchRows: number): AsyncGenerator<Record<string, unknown>[]> {
  const trx = await store.db.startTransaction().setAccessMode('read only').execute();
  try {
    await sql.raw(`declare ds_export no scroll cursor for select * from ${quote(relation)}`).execute(trx);
    for (;;) {
      const { rows } = await sql.raw<Record<string, unknown>>(`fetch forward ${batchRows} from ds_export`).execute(trx);
      if (rows.length > 0) yield rows;
      if (rows.length < batchRows) break;
    }
  } finally {
    // Read only: ending it either way changes nothing; a consumer that stops early lands here too.
    await trx.rollback().execute().catch(() => {});
  }
}
