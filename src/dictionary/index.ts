// The data dictionary: every table, view and column the mirror creates, described once, in code.
// Published by `ds-mirror schema`, as COMMENT ON in PostgreSQL, and in docs/schema.md.
import { ANALYST_VIEWS } from '../../schema/views/index.js';
import { catalogTables } from './catalog-tables.js';
import { MIRRORED_COLUMNS } from './common-columns.js';
import { engineTables } from './engine-tables.js';
import { monitoringTables } from './monitoring-tables.js';
import type { TableDoc, TableSource } from './types.js';

export type { ColumnDoc, TableDoc } from './types.js';

function tableDoc(t: TableSource): TableDoc {
  const columns = { ...t.columns, ...(t.mirrored ? MIRRORED_COLUMNS : {}) };
  return {
    name: t.name,
    kind: 'table',
    group: t.group,
    description: t.description,
    columns: Object.entries(columns).map(([name, description]) => ({ name, description })),
  };
}

export const DICTIONARY: readonly TableDoc[] = [
  ...ANALYST_VIEWS.map(
    (v): TableDoc => ({
      name: v.name,
      kind: 'view',
      group: 'analyst views',
      description: v.description,
      columns: v.columns.map((c) => ({ name: c.name, description: c.description, kind: c.kind })),
    }),
  ),
  ...[...catalogTables, ...monitoringTables, ...engineTables].map(tableDoc),
];
