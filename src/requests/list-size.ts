// Rows a list holds in the mirror and held when last read: the pager's horizon, the page guard's limit,
// the progress bar's total, what a pass would delete, and what a plan counts pages from.
import type { ListStream } from '../catalog/types.js';
import type { Store } from '../store/types.js';
import type { Variant } from './list-requests.js';

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

/** How many records a list (variant) held when last read, from its page hashes: 0 when never read. */
async function rowsLastSeen(store: Store, stream: string, variant: string): Promise<number> {
  const row = (await store.db
    .selectFrom('page_hashes')
    .select((eb) => eb.fn.sum('records').as('n'))
    .where('stream', '=', stream)
    .where('variant', '=', variant)
    .executeTakeFirst()) as { n: number | string | null } | undefined;
  return Number(row?.n ?? 0);
}

/**
 * Rows a complete pass of the variant should read: what its pages held last time. A date-window list's
 * last pages were its window's, so for it the live rows count too (a full pass after windowed ones);
 * not for others: the assets-top tier fills the assets table without a complete pass.
 */
export async function rowsExpected(store: Store, stream: ListStream, variant: Pick<Variant, 'name' | 'scope'>): Promise<number> {
  const seen = await rowsLastSeen(store, stream.name, variant.name);
  return stream.window ? Math.max(seen, await liveRows(store, stream.table, variant.scope)) : seen;
}
