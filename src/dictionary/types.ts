// The data dictionary's shape: every table and view the mirror creates, what it holds, and each column.
import type { ValueKind } from '../../schema/views/index.js';

export interface ColumnDoc {
  name: string;
  description: string;
  /** For views: the kind the view's definition declares (tables' kinds are read from the database). */
  kind?: ValueKind;
}

export interface TableDoc {
  name: string;
  kind: 'table' | 'view';
  /** Which part of the mirror it belongs to, to group the documentation. */
  group: string;
  description: string;
  columns: ColumnDoc[];
}

/** A table described in code: columns by name; columns every mirrored table shares come from MIRRORED. */
export interface TableSource {
  name: string;
  group: string;
  description: string;
  columns: Record<string, string>;
  /** Adds the raw / row_hash / first_seen_at / synced_at / deleted_at descriptions. */
  mirrored?: boolean;
}
