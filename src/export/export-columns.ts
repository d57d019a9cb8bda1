// What an export writes for a table or view: its columns in order with one kind each. Views take the
// kinds their definitions declare; tables the kinds the database reports (SQLite cannot tell a
// boolean or a time from an integer or text by itself, so the same mapping as `copy` is used).
import { ANALYST_VIEWS, type ValueKind } from '../../schema/views/index.js';
import { ConfigError } from '../errors.js';
import { listTables, type ColumnKind } from '../store/store-tables.js';
import type { Store } from '../store/types.js';

export interface ExportColumn {
  name: string;
  kind: ValueKind;
}

const FROM_TABLE: Record<ColumnKind, ValueKind> = {
  boolean: 'boolean',
  json: 'json',
  timestamp: 'timestamp',
  integer: 'integer',
  double: 'double',
  text: 'text',
  other: 'text',
};

export async function exportColumns(store: Store, name: string): Promise<ExportColumn[]> {
  const view = ANALYST_VIEWS.find((v) => v.name === name);
  if (view) return view.columns.map((c) => ({ name: c.name, kind: c.kind }));
  const tables = await listTables(store);
  const table = tables.find((t) => t.name === name);
  if (!table) {
    throw new ConfigError(
      `no table or view named "${name}"; export one of the views (${ANALYST_VIEWS.map((v) => v.name).join(', ')}) or tables (ds-mirror schema lists them)`,
    );
  }
  return table.columns.map((c) => ({ name: c.name, kind: FROM_TABLE[c.kind] }));
}
