// The table the mirror's schema writes at every migration, as Kysely sees it (Kysely<MirrorSchemaTables>):
// the catalog's streams, which v_streams lists from a store's first open.
import type { StoredBoolean } from '../store/index.js';

/** The catalog's streams as the last sync knew them (0045). */
export interface CatalogStreamsTable {
  stream: string;
  table_name: string;
  kind: string;
  opt_in: StoredBoolean;
  description: string;
  live_rows: number | null;
  counted_at: string | null;
  recorded_at: string;
}

/** The stream catalog's table (schema/migrations/0045). */
export interface MirrorSchemaTables {
  catalog_streams: CatalogStreamsTable;
}
