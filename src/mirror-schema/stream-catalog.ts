// The streams ds-mirror knows, written into catalog_streams whenever the store is made or upgraded (and
// again whenever the catalog changes): v_streams then lists every stream `ds-mirror status` lists from
// the first open, 0 live rows and never run, not only the streams a sync has recorded. Rows, not objects:
// a repeatable so that they follow the code's catalog as the views do. Each sync records them too
// (src/sync/record-streams.ts), for a store opened without migrating.
import type { Kysely } from 'kysely';
import { catalogRow, type StreamDef } from '../catalog/index.js';
import type { MirrorSchemaTables } from './mirror-schema-tables.js';
import type { Repeatable } from '../store/index.js';

/** The repeatable that keeps catalog_streams equal to `streams`. */
export function streamCatalog(streams: readonly StreamDef[]): Repeatable {
  const rows = () => streams.map(catalogRow);
  return {
    name: 'stream-catalog',
    definition: async () => JSON.stringify(rows()),
    async apply(db) {
      const store = db as Kysely<MirrorSchemaTables>;
      const recordedAt = new Date().toISOString();
      for (const { stream, ...row } of rows()) {
        // 1 or 0: what SQLite binds, and what PostgreSQL reads into a boolean.
        const described = { ...row, opt_in: Number(row.opt_in), recorded_at: recordedAt };
        await store
          .insertInto('catalog_streams')
          .values({ stream, ...described })
          .onConflict((oc) => oc.column('stream').doUpdateSet(described))
          .execute();
      }
      await store
        .deleteFrom('catalog_streams')
        .where(
          'stream',
          'not in',
          rows().map((r) => r.stream),
        )
        .execute();
    },
    // Nothing to drop: a migration may change the table, and the rows are written again after it.
    drop: async () => {},
  };
}
