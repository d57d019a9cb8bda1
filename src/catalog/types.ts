// A stream is data: its request, how it pages, where its records sit in the response, which table keeps
// them and how a record becomes a row. The runners (src/sync/, src/sync/monitoring/) read these entries; the
// catalog imports none of them.
import type { Row } from '../store/types.js';
import type { RunnerName } from './runner-names.js';

export type Query = Record<string, string | number | boolean | readonly (string | number)[] | undefined>;

/** Where a value is in a record: a dotted path ('market_cap.rank'), or the first present of several spellings. */
export type ValuePath = string | { firstOf: readonly string[] };
/**
 * Where a column's value is in the record (src/sync/row-mapping.ts reads it), as data: a path, or a time
 * or date written in the store's one form (`unixTime`: Unix seconds or a text time; `isoTime`: a text
 * time in a field; `isoDate`: the day).
 */
export type ColumnSource = ValuePath | { unixTime: ValuePath } | { isoTime: string } | { isoDate: ValuePath };
export type ColumnMap = Readonly<Record<string, ColumnSource>>;

/**
 * How a list pages, by the name of its paginator (src/paging/paginator.ts). `page-number`: `page`/`limit`
 * (the /v1 and monitoring lists), ended by the first short page. `single`: one request holds the whole
 * list (paging is accepted and ignored, so never sent).
 */
export type PageNumberSpec = { type: 'page-number'; pageParam: string; limitParam: string; pageSize: number };
export type PaginatorSpec = PageNumberSpec | { type: 'single' };

/**
 * The real service's size of a stream, for what a run costs before the mirror holds it (the budget's
 * estimates, the progress bar's total): the published figures, split and completed as the sandbox's
 * `--profile real` serves them.
 */
export interface PublishedSize {
  /** Records, per variant where the list has variants. */
  rows: number | Readonly<Record<string, number>>;
  /** New records a day of a date-window stream: what an incremental window holds beyond its lookback. */
  rowsPerDay?: number;
}

/** What a run's settings may change in a list: the records per class of a partial (top) list. */
export interface ListSettings {
  readonly topAssets?: number;
}

/** Configured filters that become the list's query (a user mirroring a slice); deletions stay within them. */
export interface ConfiguredFilters {
  /** The family of `monitoring.queryParams` and of the configuration's filters (`monitoring.tokenUnlocks`). */
  family: 'tokenUnlocks';
  /** Per filter name, the stored column it matches (OR within a filter, AND across; `list` for JSON arrays). */
  covers: Readonly<Record<string, { column: string; list?: true }>>;
}

/** A table records are mapped into: the stream they are quarantined under, the key and the mapping. */
export interface MappedTable {
  name: string;
  /** Which part of the stream a quarantined record was, said before its reason ('development'). */
  label?: string;
  table: string;
  key: readonly string[];
  columns: ColumnMap;
  required: readonly string[];
}

/** Rows every record carries in one of its fields (a category's subcategories): a table written in the same pass. */
export interface ChildTable {
  table: string;
  /** The field of the parent record that holds the child records. */
  records: string;
  /** Child columns filled from the parent's row (column → parent column). */
  parentColumns: Readonly<Record<string, string>>;
  key: readonly string[];
  columns: ColumnMap;
  required: readonly string[];
}

/** A list endpoint: request, paginator, record selector, key, deletions, incremental rule and mapping. */
export interface ListStream {
  kind: 'list';
  name: string;
  description: string;
  path: string;
  /** Fixed query parameters (required sort keys, expansions, ...). */
  query?: Query;
  /** Query parameters from the user's configured filters. */
  filters?: ConfiguredFilters;
  paginator: PaginatorSpec;
  /** The record selector: the path of the records' array in the response body (`data`). */
  records: string;
  /** The path declares no credential (the spec's keyless operations): the key is never sent, and it counts as `open`. */
  keyless?: true;
  /** One pass per variant (e.g. each asset class), each with its own extra query. */
  variants?: readonly { name: string; query: Query; scope: Row }[];
  table: string;
  key: readonly string[];
  columns: ColumnMap;
  /** Fields a record must carry to be mirrored; a record without one goes to quarantine. */
  required: readonly string[];
  /** Rows no longer served after a complete (unwindowed) pass get `deleted_at`. */
  detectDeletes: boolean;
  /** Date-window streams resume from their high-water mark minus a lookback. */
  window?: DateWindow;
  child?: ChildTable;
  /** Not part of a default run: only when named or selected in configuration. */
  optIn?: boolean;
  /**
   * A partial list: only its first records in the query's order (the top of a ranking), per variant: as
   * many as the run's setting names, or the default. Cheap and never complete, so it never soft-deletes
   * (set detectDeletes false).
   */
  maxRecords?: { setting: keyof ListSettings; default: number };
  published?: PublishedSize;
  /** Its versions view lifts every column from the kept raw, so its history keeps no typed_row (schema/history/triggers.ts). */
  versionsFromRaw?: true;
}

export interface DateWindow {
  /** Query parameter carrying the lower bound, inclusive. */
  startParam: string;
  /** The record field holding the date the window is about. */
  field: string;
  /** How the bound is written: 'date' is YYYY-MM-DD, 'rfc3339' a full timestamp. */
  format: 'date' | 'rfc3339';
  defaultLookbackDays: number;
}

/** Children that hang off each selected parent row (an asset's markets, a chart's data rows, ...). */
export interface FanoutStream {
  kind: 'fanout';
  name: string;
  description: string;
  parent: { table: string; key: string; idOrSlug: string; orderBy?: string };
  /** The per-parent path: `{idOrSlug}` stands for the parent's id or slug (URL-encoded). */
  path: string;
  /** Query parameters from the run's fan-out settings (parameter → setting; a list is sent comma-separated). */
  settingsQuery?: Readonly<Record<string, keyof FanoutSettings>>;
  table: string;
  key: readonly string[];
  /**
   * 'record': the response is one record for the parent (upserted when changed);
   * 'rows': the response holds many rows, replaced atomically per parent.
   */
  shape: 'record' | 'rows';
  /** For 'rows': page through the parent's rows (chart data), under the same loop guard as every list; omit for one request. */
  paginator?: PageNumberSpec;
  /**
   * How a response becomes rows, by the name of a mapping (src/sync/fanout-rows.ts): 'record' maps the
   * response with `columns`, its parent's key in the first key column; 'linked-ids' pairs the parent's key
   * with each listed record's id, 'series-by-project' a row per project and date, 'numbered-rows' rows
   * numbered in the order served.
   */
  mapping: 'record' | 'linked-ids' | 'series-by-project' | 'numbered-rows';
  columns?: ColumnMap;
  /** Values the user asked for in a column of the rows (metric-series' projects, from the setting named): those
   *  that no parent returned are named at the end of the run, instead of a silent empty success. */
  requested?: { column: string; flag: string; setting: keyof FanoutSettings };
  optIn: true;
}

export interface FanoutParent {
  key: string | number;
  idOrSlug: string;
}

/** What a user configures for fan-outs beyond the parent selection. */
export interface FanoutSettings {
  /** Project names for `/v1/metrics/{identifier}?project=...` (the endpoint requires at least one). */
  metricProjects: readonly string[];
}

/**
 * A stream the list and fan-out runners cannot run, named by the hand-written runner that does
 * (src/sync/monitoring/): it runs with the same context, leases, stats and run records as every other stream.
 */
export interface CustomStream {
  kind: 'custom';
  name: string;
  description: string;
  /** The endpoint, for `ds-mirror streams`. */
  path: string;
  /** The main table, for `ds-mirror status`. */
  table: string;
  key: readonly string[];
  /** How its lists page (the runner may rename the parameters as the configuration says). */
  paginator: PageNumberSpec;
  /** The runner soft-deletes rows of `table` by key after a complete pass (so the table needs a live-key index). */
  detectDeletes: boolean;
  optIn?: boolean;
  /** The registered runner that runs and plans it (src/sync/monitoring/runners.ts). */
  runner: RunnerName;
  published?: PublishedSize;
  /** As a list's: its history keeps no typed_row. */
  versionsFromRaw?: true;
  /** The views pass's options (`backfill alerts` builds its own). */
  views?: ViewPassOptions;
}

export interface ViewPassOptions {
  /** Views to cover instead of the configured ones. */
  views?: readonly string[];
  /** Only developments started at or after this bound (RFC 3339, YYYY-MM-DD or Unix seconds). */
  since?: string;
  /** Page through every match (the backfill); otherwise full passes follow fullPassEveryHours. */
  full?: boolean;
  /** Where `views` came from, for the message about an unknown one (default: the configuration's names). */
  source?: string;
}

export type StreamDef = ListStream | FanoutStream | CustomStream;
