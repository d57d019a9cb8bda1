// What a RowsWrite (types.ts) asks of a key held already, as the ON CONFLICT clause both stores read alike:
// one text for the SQLite writer thread's prepared statements and the store's own multi-row inserts, so
// the rule a caller states as data is written once.
import { quoteIdent } from './store-adapter.js';
import type { RowsWrite } from './types.js';

export function conflictSql(write: RowsWrite): string {
  const key = write.key.map(quoteIdent).join(', ');
  if (!write.update) return `on conflict (${key}) do nothing`;
  const sets = write.update.columns.map((c) => `${quoteIdent(c)} = excluded.${quoteIdent(c)}`).join(', ');
  const unlessSet = write.update.whereNull;
  return `on conflict (${key}) do update set ${sets}${unlessSet ? ` where ${quoteIdent(write.table)}.${quoteIdent(unlessSet)} is null` : ''}`;
}
