// The monitoring-categories stream: the full taxonomy in one response, into a categories table and a
// subcategories table (keyed by category and slug), each upserted when changed; what is no longer
// served is soft-deleted (the response is always complete).
import { MONITORING_PATHS } from '../catalog/monitoring.js';
import { dataArray } from '../client/index.js';
import { keyString, type WriteCounts } from '../store/types.js';
import { addWrites, type StreamContext } from '../sync/context.js';
import { recordsToRows, type Mapped } from '../sync/record-rows.js';

const COLUMNS = { slug: 'slug', name: 'name', description: 'description' } as const;
const CATEGORY = { key: ['slug'], required: ['slug'], columns: COLUMNS } as const;
const SUBCATEGORY = { key: ['category_slug', 'slug'], required: ['slug'], columns: COLUMNS } as const;

export async function syncCategories(ctx: StreamContext): Promise<void> {
  const { stats, store } = ctx;
  stats.requests++;
  const body = await ctx.client.get<{ data: unknown[] }>(MONITORING_PATHS.categories, undefined, { check: dataArray });
  const categories = recordsToRows(body.data, CATEGORY);
  const subcategories: Mapped = { rows: [], rejected: [] };
  for (const row of categories.rows) {
    const record = JSON.parse(String(row.raw)) as { subcategories?: unknown };
    const subs = recordsToRows(Array.isArray(record.subcategories) ? record.subcategories : [], SUBCATEGORY, { category_slug: row.slug });
    subcategories.rows.push(...subs.rows);
    subcategories.rejected.push(...subs.rejected);
  }
  const now = ctx.now();
  const written = await store.transaction(async (tx) => {
    for (const r of [...categories.rejected, ...subcategories.rejected]) await tx.quarantine(stats.stream, r.reason, r.record, now);
    const counts: WriteCounts[] = [];
    if (categories.rows.length) counts.push(await tx.upsertChanged('monitoring_categories', CATEGORY.key, categories.rows, now));
    if (subcategories.rows.length) counts.push(await tx.upsertChanged('monitoring_subcategories', SUBCATEGORY.key, subcategories.rows, now));
    return counts;
  });
  stats.fetched += categories.rows.length + subcategories.rows.length;
  stats.errors += categories.rejected.length + subcategories.rejected.length;
  for (const c of written) addWrites(stats, c);
  for (const [table, spec, mapped] of [
    ['monitoring_categories', CATEGORY, categories],
    ['monitoring_subcategories', SUBCATEGORY, subcategories],
  ] as const) {
    const seen = new Set(mapped.rows.map((r) => keyString(spec.key.map((k) => r[k]))));
    const deleted = await store.softDeleteMissing(table, spec.key, seen, {}, now);
    stats.deleted += deleted;
  }
}
