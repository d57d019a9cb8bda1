// The token-unlocks stream: /token-unlocks/v1/assets returns the whole covered set in one response
// (paging is accepted and ignored), upserted by UUID when changed. Removals are scoped to what the
// configured filters cover: a stored asset the filters cover that is no longer served is soft-deleted;
// assets outside the filters (mirrored earlier, or by another configuration) are left alone.
import { MONITORING_PATHS } from '../catalog/monitoring.js';
import { dataArray } from '../client/index.js';
import { keyString } from '../store/types.js';
import { addWrites, type StreamContext } from '../sync/context.js';
import { recordsToRows } from '../sync/record-rows.js';
import { tokenUnlockFilters } from './filter-query.js';

const TABLE = 'token_unlock_assets';
const SPEC = {
  key: ['id'],
  required: ['id'],
  columns: {
    id: 'id',
    serial_id: 'serialId',
    symbol: 'symbol',
    name: 'name',
    slug: 'slug',
    genesis_date: 'genesisDate',
    projected_end_date: 'projectedEndDate',
    category: 'category',
    sector: 'sector',
    tags: 'tags',
    other_info: 'otherInfo',
  },
} as const;

type Filters = Readonly<Record<string, string | readonly string[]>>;

export async function syncTokenUnlocks(ctx: StreamContext): Promise<void> {
  const { stats, store } = ctx;
  const filters = ctx.settings.monitoring.tokenUnlocks;
  const query = tokenUnlockFilters(filters, ctx.settings.monitoring.params);
  stats.requests++;
  const body = await ctx.client.get<{ data: unknown[] }>(MONITORING_PATHS.tokenUnlocks, query, { check: dataArray });
  const { rows, rejected } = recordsToRows(body.data, SPEC);
  const now = ctx.now();
  const counts = await store.transaction(async (tx) => {
    for (const r of rejected) await tx.quarantine(stats.stream, r.reason, r.record, now);
    return rows.length ? tx.upsertChanged(TABLE, SPEC.key, rows, now, stats.stream) : null;
  });
  stats.fetched += body.data.length;
  stats.errors += rejected.length + (counts?.rejected ?? 0);
  addWrites(stats, counts);
  ctx.progress.advance(stats.stream, stats);

  const keep = new Set(rows.map((r) => keyString([r.id])));
  // Live rows the filters do not cover count as seen: this run says nothing about them.
  const covers = coverage(filters);
  if (covers) {
    const live = await store.db.selectFrom(TABLE).select(['id', 'category', 'sector', 'tags']).where('deleted_at', 'is', null).execute();
    for (const row of live) if (!covers(row)) keep.add(keyString([row.id]));
  }
  const deleted = await store.softDeleteMissing(TABLE, SPEC.key, keep, {}, now);
  stats.deleted += deleted;
}

/** What the filters cover, as the service matches them (OR within a filter, AND across); null = everything. */
function coverage(filters: Filters): ((row: Record<string, unknown>) => boolean) | null {
  const set = (name: string): Set<string> | null => {
    const v = filters[name];
    const list = (typeof v === 'string' ? v.split(',') : (v ?? [])).map((s) => s.trim().toLowerCase()).filter(Boolean);
    return list.length ? new Set(list) : null;
  };
  const ids = set('assetIds'), categories = set('categories'), sectors = set('sectors'), tags = set('tags');
  if (!ids && !categories && !sectors && !tags) return null;
  const lower = (v: unknown) => String(v ?? '').toLowerCase();
  return (row) =>
    (!ids || ids.has(lower(row.id))) &&
    (!categories || categories.has(lower(row.category))) &&
    (!sectors || sectors.has(lower(row.sector))) &&
    (!tags || storedTags(row.tags).some((t) => tags.has(t.toLowerCase())));
}

/** A JSON column: text on SQLite, already parsed on PostgreSQL. */
function storedTags(value: unknown): string[] {
  const parsed = typeof value === 'string' ? JSON.parse(value) : value;
  return Array.isArray(parsed) ? parsed.map(String) : [];
}
