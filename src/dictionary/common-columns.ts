// Columns that mean the same in every mirrored table, described once.
export const MIRRORED_COLUMNS: Record<string, string> = {
  raw: 'The record exactly as the API served it (JSON); the lifted columns and the v_* views are read from it.',
  row_hash: 'Hash of the record as received: a re-fetched record whose hash is unchanged is not written again.',
  first_seen_at: 'When the mirror first stored this record.',
  synced_at: 'When the mirror last wrote this record (inserted, changed, or back after a delete).',
  deleted_at: 'When a complete pass stopped seeing the record upstream (soft delete); null while it is live.',
};
