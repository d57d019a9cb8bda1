// The "changed row" rule, once: a re-fetched row is written again only when its row_hash differs from
// the stored one or the stored row was soft-deleted; otherwise nothing is written (and no history is
// kept). The adapters' upserts, the fan-out's per-parent replace and the history trigger all ask here.
import type { AnalystSql } from './analyst-sql.js';

/** What the store holds for a key: its hash and, for mirrored tables, whether it was soft-deleted. */
export interface StoredVersion {
  row_hash: unknown;
  deleted_at?: unknown;
}

export function rowChanged(stored: StoredVersion | undefined, rowHash: unknown): boolean {
  return stored === undefined || stored.row_hash !== rowHash || (stored.deleted_at ?? null) !== null;
}

/** SQL: the content of row `a` differs from row `b`'s (aliases such as old/new, t/excluded). */
export function hashDiffersSql(d: Pick<AnalystSql, 'distinctFrom'>, a: string, b: string): string {
  return `${a}.row_hash ${d.distinctFrom} ${b}.row_hash`;
}

/** SQL of rowChanged: the stored row `stored` is to be replaced by the incoming row `incoming`. */
export function rowChangedSql(d: Pick<AnalystSql, 'distinctFrom'>, stored: string, incoming: string): string {
  return `${hashDiffersSql(d, stored, incoming)} or ${stored}.deleted_at is not null`;
}
