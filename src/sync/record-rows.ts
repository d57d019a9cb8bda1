// Records → rows ready for the store: mapped columns, the record as received, and the content hash
// that decides whether a re-fetched record is a change. Records that cannot be mirrored are set aside
// with the reason (they go to quarantine; the sync goes on).
import { hash } from 'node:crypto';
import { missingRequired, toRow } from '../catalog/mapping.js';
import type { ColumnMap } from '../catalog/types.js';
import type { Row } from '../store/types.js';

/**
 * A content fingerprint, not a security boundary. SHA-1 is twice as fast as md5 on CPUs with SHA
 * instructions (most x86 and ARM servers) and about as fast without them.
 */
export function contentHash(data: string | Buffer): string {
  return hash('sha1', data, 'base64url');
}

export interface Mapped {
  rows: Row[];
  rejected: { record: unknown; reason: string }[];
}

export function recordsToRows(
  records: readonly unknown[],
  spec: { columns: ColumnMap; key: readonly string[]; required: readonly string[] },
  extra?: Row,
): Mapped {
  const rows: Row[] = [];
  const rejected: Mapped['rejected'] = [];
  for (const record of records) {
    const reason = missingRequired(record, spec.required);
    if (reason) {
      rejected.push({ record, reason });
      continue;
    }
    const row = toRow(record, spec.columns); // a fresh object: extended in place
    if (extra) Object.assign(row, extra);
    const nullKey = spec.key.find((k) => row[k] === null || row[k] === undefined);
    if (nullKey) {
      rejected.push({ record, reason: `key column "${nullKey}" is empty` });
      continue;
    }
    const raw = JSON.stringify(record);
    row.raw = raw;
    row.row_hash = contentHash(raw);
    rows.push(row);
  }
  return { rows, rejected };
}
