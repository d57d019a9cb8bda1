// A monitoring event → rows of the normalized tables, so analysts can join events to their assets,
// categories and developments in SQL. A development is first known from its summary inside the event:
// its row_hash is the summary's hash, and detail_fetched_at = null marks its detail as pending.
import { toRow } from '../row-mapping.js';
import { DETAIL_COLUMNS, developmentSummary } from '../../catalog/monitoring-records.js';
import type { ColumnMap } from '../../catalog/types.js';
import type { Row } from '../../store/types.js';
import { recordsToRows, type Mapped } from '../record-rows.js';

export interface EventChildren {
  assets: Row[];
  categories: Row[];
  subcategories: Row[];
  developments: Mapped;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? [...new Set(value.filter((v): v is string => typeof v === 'string' && v !== ''))] : [];
}

/** The fields of an event's asset that its asset row reads. */
const ASSET_COLUMNS = { asset_id: 'id', name: 'name', slug: 'slug', symbol: 'symbol', class: 'class' } as const satisfies ColumnMap;

/** An event's lists whose items become rows of their own: their fields are watched as the event's are (src/sync/shape/). */
export const EVENT_ITEMS = { assets: { columns: ASSET_COLUMNS }, developments: developmentSummary } as const;

/** Child rows of one event (already validated as an event record). */
export function eventChildren(event: Record<string, any>): EventChildren {
  const eventId = String(event.id);
  const assets = (Array.isArray(event.assets) ? event.assets : [])
    .filter((a: any) => a && typeof a.id === 'string')
    .map((a: unknown) => ({ event_id: eventId, ...toRow(a, ASSET_COLUMNS) }));
  return {
    assets,
    categories: strings(event.intelCategories).map((slug) => ({ event_id: eventId, category_slug: slug })),
    subcategories: strings(event.intelSubcategories).map((slug) => ({ event_id: eventId, subcategory_slug: slug })),
    developments: recordsToRows(Array.isArray(event.developments) ? event.developments : [], developmentSummary, {
      event_id: eventId,
      detail_fetched_at: null,
    }),
  };
}

/** The columns a fetched detail sets (row_hash stays the summary's: the detail never decides a refetch). */
export function detailColumns(detail: unknown): Row {
  return toRow(detail, DETAIL_COLUMNS);
}
