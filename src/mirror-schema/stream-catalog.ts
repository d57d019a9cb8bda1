// The streams ds-mirror knows, as rows of catalog_streams (this room's table): written whenever the store
// is made or upgraded (and again whenever the catalog changes), so v_streams lists every stream
// `ds-mirror status` lists from the first open, 0 live rows and never run, not only the streams a sync has
// recorded. Rows, not objects: a repeatable so that they follow the code's catalog as the views do. Each
// sync records them too (src/sync/engine.ts, through recordCatalog), for a store opened without migrating.
import type { Kysely } from 'kysely';
import { catalogRow, type CatalogRow, type StreamDef } from '../catalog/index.js';
import type { MirrorSchemaTables } from './mirror-schema-tables.js';
import type { Repeatable } from '../store/index.js';
import { definitionFromCode } from './code-definition.js';

const same = (a: CatalogRow, b: Record<string, unknown>) =>
  a.table_name === b.table_name && a.kind === b.kind && a.opt_in === Boolean(Number(b.opt_in)) && a.description === b.description;

/**
 * Makes catalog_streams say `streams` (the last of a name wins), at `at` (ISO): a row is rewritten only
 * when its stream's description changed (an upgrade), and the rows of streams not among them are dropped.
 */
export async function recordCatalog(db: Kysely<unknown>, streams: readonly StreamDef[], at: string): Promise<void> {
  const store = db as Kysely<MirrorSchemaTables>;
  const known = new Map((await store.selectFrom('catalog_streams').selectAll().execute()).map((r) => [r.stream, r as object]));
  const wanted = new Map(streams.map((s) => [s.name, catalogRow(s)]));
  for (const { stream, ...row } of wanted.values()) {
    const old = known.get(stream) as Record<string, unknown> | undefined;
    if (old && same({ stream, ...row }, old)) continue;
    // 1 or 0: what SQLite binds, and what PostgreSQL reads into a boolean.
    const described = { ...row, opt_in: Number(row.opt_in), recorded_at: at };
    await store
      .insertInto('catalog_streams')
      .values({ stream, ...described })
      .onConflict((oc) => oc.column('stream').doUpdateSet(described))
      .execute();
  }
  const gone = [...known.keys()].filter((s) => !wanted.has(s));
  if (gone.length > 0) await store.deleteFrom('catalog_streams').where('stream', 'in', gone).execute();
}

/** The repeatable that keeps catalog_streams equal to `streams`. */
export function streamCatalog(streams: readonly StreamDef[]): Repeatable {
  return {
    name: 'stream-catalog',
    ...definitionFromCode(streams, () => JSON.stringify(streams.map(catalogRow))),
    apply: (db) => recordCatalog(db, streams, new Date().toISOString()),
    // Nothing to drop: a migration may change the table, and the rows are written again after it.
    drop: async () => {},
  };
}
