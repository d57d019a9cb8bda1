// A stream is data: where its records come from, how they page, which table keeps them and how a record
// becomes a row. The sync engine knows nothing about any one endpoint beyond what is written here.
import type { Row } from '../store/types.js';
import type { StreamContext, SyncSettings } from '../sync/context.js';

export type Query = Record<string, string | number | boolean | readonly (string | number)[] | undefined>;

/** A column and where its value is in the record: a dotted path ('market_cap.rank') or a function. */
export type ColumnSource = string | ((record: any) => unknown);
export type ColumnMap = Readonly<Record<string, ColumnSource>>;

/** A `/v1`-style list paged with `page`/`limit` in a `{page, total, data}` envelope. */
export interface ListStream {
  kind: 'list';
  name: string;
  description: string;
  path: string;
  pageSize: number;
  /** Fixed query parameters (required sort keys, expansions, ...). */
  query?: Query;
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
  /** How the list reads its envelope: `/v1` lists by default. */
  envelope?: 'v1' | 'monitoring' | 'token-unlocks';
  /** Not part of a default run: only when named or selected in configuration. */
  optIn?: boolean;
  /**
   * A partial list: only its first records in the query's order (the top of a ranking), per variant.
   * Cheap and never complete, so it never soft-deletes (set detectDeletes false).
   */
  maxRecords?: (settings: SyncSettings) => number;
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
  path: (parent: FanoutParent) => string;
  query?: (parent: FanoutParent, settings: FanoutSettings) => Query;
  table: string;
  key: readonly string[];
  /**
   * 'record': the response is one record for the parent (upserted when changed);
   * 'rows': the response holds many rows, replaced atomically per parent.
   */
  shape: 'record' | 'rows';
  /** For 'rows': page through the parent's rows at this size (chart data); omit for one request. */
  pageSize?: number;
  /** Turns a response into rows; `parent` carries the parent key for the child columns. */
  toRows: (response: any, parent: FanoutParent) => Row[];
  /** Values the user asked for in a column of the rows (metric-series' projects): those that no parent
   *  returned are named at the end of the run, instead of a silent empty success. */
  requested?: { column: string; flag: string; values: (settings: FanoutSettings) => readonly string[] };
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
 * A stream whose endpoint does not fit the generic list/fan-out runners (monitoring events with their
 * developments, views and their matches, the category taxonomy): it runs itself, with the same context,
 * leases, stats and run records as every other stream.
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
  optIn?: boolean;
  run: (ctx: StreamContext) => Promise<void>;
}

export type StreamDef = ListStream | FanoutStream | CustomStream;
