// Which parents a fan-out covers (the configured selection of its parent table, live rows only), and
// the request each one makes: the path and query its catalog entry describes.
import type { FanoutParent, FanoutSettings, FanoutStream, Query } from '../catalog/types.js';
import type { Store } from '../store/types.js';
import type { Selection, SyncSettings } from './run-settings.js';

export async function selectParents(store: Store, stream: FanoutStream, selection: Selection): Promise<FanoutParent[]> {
  const { table, key, idOrSlug, orderBy } = stream.parent;
  let query = store.db
    .selectFrom(table)
    .select([`${key} as key`, `${idOrSlug} as idOrSlug`])
    .where('deleted_at', 'is', null);
  if ('ids' in selection) {
    const ids = [...selection.ids];
    // Compared as text: a selection mixes numeric ids and slugs, and PostgreSQL will not compare bigint to text.
    query = query.where((eb) => eb.or([eb(eb.cast(eb.ref(key), 'text'), 'in', ids), eb(eb.cast(eb.ref(idOrSlug), 'text'), 'in', ids)]));
  }
  if (orderBy) query = query.orderBy((eb) => eb(orderBy, 'is', null)).orderBy(orderBy);
  query = query.orderBy(key);
  if ('top' in selection) query = query.limit(selection.top);
  const rows = (await query.execute()) as { key: string | number; idOrSlug: unknown }[];
  return rows.map((r) => ({ key: r.key, idOrSlug: String(r.idOrSlug) }));
}

/** Without a configured selection, a fan-out covers the first 100 parents (requests are precious). */
export function selectionFor(settings: SyncSettings, stream: FanoutStream): Selection {
  return settings.selection[stream.parent.table] ?? { top: 100 };
}

/** The parent's path: the catalog's template with its id or slug. */
export function fanoutPath(stream: FanoutStream, parent: Pick<FanoutParent, 'idOrSlug'>): string {
  return stream.path.replace('{idOrSlug}', encodeURIComponent(parent.idOrSlug));
}

/** The query the run's settings give every parent's request (the metric series' projects), if any. */
export function fanoutQuery(stream: FanoutStream, settings: FanoutSettings): Query | undefined {
  if (!stream.settingsQuery) return undefined;
  return Object.fromEntries(Object.entries(stream.settingsQuery).map(([param, setting]) => [param, settings[setting].join(',')]));
}
