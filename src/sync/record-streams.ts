// The catalog in the store (also written when the store is migrated: src/mirror-schema/stream-catalog.ts): which table each stream fills, so v_streams answers "what does the mirror hold
// and how fresh is it" in SQL (it counts the tables' live rows when read, as `status` does). The store never
// reads the catalog (it is code), so sync writes what it knows; a row is rewritten only when the catalog
// changed (an upgrade).
import { catalogRow, type CatalogRow } from '../catalog/index.js';
import type { StreamDef } from '../catalog/types.js';
import type { Store } from '../store/types.js';

const same = (a: CatalogRow, b: Record<string, unknown>) =>
  a.table_name === b.table_name && a.kind === b.kind && a.opt_in === Boolean(Number(b.opt_in)) && a.description === b.description;

/** Records `catalog` (the streams ds-mirror knows) and the streams of this run, at `at` (ISO). */
export async function recordStreams(store: Store, catalog: readonly StreamDef[], ran: readonly StreamDef[], at: string): Promise<void> {
  const db = store.db;
  const known = new Map(
    (await db.selectFrom('catalog_streams').selectAll().execute()).map((r) => [r.stream, r as Record<string, unknown>]),
  );
  const wanted = new Map([...catalog, ...ran].map((s) => [s.name, catalogRow(s)]));
  for (const row of wanted.values()) {
    const old = known.get(row.stream);
    if (old && same(row, old)) continue;
    const { stream, ...described } = { ...row, opt_in: store.adapter.toDb(row.opt_in) as number, recorded_at: at };
    await db
      .insertInto('catalog_streams')
      .values({ stream, ...described })
      .onConflict((oc) => oc.column('stream').doUpdateSet(described))
      .execute();
  }
  const gone = [...known.keys()].filter((s) => !wanted.has(s));
  if (gone.length > 0) await db.deleteFrom('catalog_streams').where('stream', 'in', gone).execute();
}
