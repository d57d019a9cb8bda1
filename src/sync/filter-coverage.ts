// A list read through configured filters (a user mirroring a slice) says nothing about the rows its
// filters do not cover (mirrored earlier, or by another configuration): those count as seen, so deletion
// detection removes only what the filters cover and the service no longer serves. The service matches
// as the catalog entry declares: OR within a filter, AND across filters, case-insensitive.
import type { ListStream } from '../catalog/types.js';
import { rowKey } from '../store/types.js';
import type { StreamContext } from './context.js';

type Covers = NonNullable<ListStream['filters']>['covers'];
type FilterValue = string | boolean | number | readonly string[];

/** Adds to `seen` the keys of live rows the stream's configured filters do not cover. */
export async function keepUncovered(ctx: StreamContext, stream: ListStream, seen: Set<string>): Promise<void> {
  if (!stream.filters) return;
  const covers = coverage(ctx.settings.monitoring[stream.filters.family], stream.filters.covers);
  if (!covers) return;
  const columns = [...new Set([...stream.key, ...Object.values(stream.filters.covers).map((c) => c.column)])];
  const live = (await ctx.store.db.selectFrom(stream.table).select(columns).where('deleted_at', 'is', null).execute()) as Record<
    string,
    unknown
  >[];
  for (const row of live) if (!covers(row)) seen.add(rowKey(row, stream.key));
}

/** What the filters cover; null when no filter is set (everything). */
function coverage(filters: Readonly<Record<string, FilterValue>>, covers: Covers): ((row: Record<string, unknown>) => boolean) | null {
  const tests: ((row: Record<string, unknown>) => boolean)[] = [];
  for (const [name, { column, list }] of Object.entries(covers)) {
    const wanted = lowered(filters[name]);
    if (wanted.size === 0) continue;
    tests.push(
      list
        ? (row) => storedList(row[column]).some((v) => wanted.has(v.toLowerCase()))
        : (row) => wanted.has(String(row[column] ?? '').toLowerCase()),
    );
  }
  return tests.length === 0 ? null : (row) => tests.every((t) => t(row));
}

function lowered(value: FilterValue | undefined): Set<string> {
  const list = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : [];
  return new Set(list.map((s) => String(s).trim().toLowerCase()).filter(Boolean));
}

/** A JSON column: text on SQLite, already parsed on PostgreSQL. */
function storedList(value: unknown): string[] {
  const parsed = typeof value === 'string' ? JSON.parse(value) : value;
  return Array.isArray(parsed) ? parsed.map(String) : [];
}
