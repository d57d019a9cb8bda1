// Rows a list holds in the mirror now: the pager's horizon, the progress bar's total, and what a pass
// would delete.
import type { Store } from '../store/types.js';

/** Live rows of a table within a variant's scope. */
export async function liveRows(store: Store, table: string, scope: Readonly<Record<string, unknown>>): Promise<number> {
  let q = store.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .where('deleted_at', 'is', null);
  for (const [column, value] of Object.entries(scope)) q = q.where(column, '=', value);
  const row = (await q.executeTakeFirst()) as { n: unknown } | undefined;
  return Number(row?.n ?? 0);
}
