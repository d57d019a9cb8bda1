// The settings of a run that decide what it requests (and so what a plan counts): the mode, the
// windows, the fan-outs' parents, the monitoring filters and backlog, the paging limits.
import type { FanoutSettings } from '../catalog/types.js';
import type { MonitoringParams } from '../catalog/query-params.js';
import type { Selection } from '../config.js';

/** Which parents a fan-out covers: every live row, the first N by the parent's order, or given ids/slugs. */
export type { Selection };

export interface SyncSettings {
  mode: 'full' | 'incremental';
  /** Pages of one list in flight at once (within what the mirror already knows exists). */
  pageWindow: number;
  /** Per-stream lookback of date-window streams, in days. */
  lookbackDays: Readonly<Record<string, number>>;
  /** Fan-out selection per parent table ('assets', 'projects', 'metrics', 'charts'). */
  selection: Readonly<Record<string, Selection>>;
  fanout: FanoutSettings;
  /** Parents of a fan-out fetched at once. */
  fanoutConcurrency: number;
  monitoring: MonitoringSettings;
  /** Records per asset class of the `assets-top` tier (default 100). */
  topAssets?: number;
  /** Ceiling of pages one list may serve in one run (default 10,000); below it, twice what the mirror last saw. */
  maxPagesPerList?: number;
  /** A pass that would soft-delete more than this share of a list's live rows holds them back (default 0.05). */
  maxDeleteShare?: number;
  /** A held mass deletion is done by a complete pass at least this many hours after the one that held it (default 6). */
  confirmDeletionsAfterHours?: number;
  /** The operator confirmed the deletions a complete pass would hold back (not those of a list that moved). */
  confirmDeletions?: boolean;
  /** What a change of the service's shape does, per stream (src/sync/shape/): `hold` unless configured. */
  schemaChanges?: { default?: 'hold' | 'accept' | 'fail'; streams?: Readonly<Record<string, 'hold' | 'accept' | 'fail'>> };
  /** Records parsed and not yet written at once, across the run's lists (default: PARSED_RECORDS_AT_ONCE). */
  parsedRecordsAtOnce?: number;
}

export interface MonitoringSettings {
  /** Monitoring views to mirror, by id or slug-with-id-prefix (there is no list endpoint). */
  views: readonly string[];
  /** Filters of /monitoring/v2/events, by the catalog's parameter names (a user mirroring a slice). */
  events: Readonly<Record<string, string | boolean | number | readonly string[]>>;
  /** Filters of /token-unlocks/v1/assets (asset ids, categories, sectors, tags). */
  tokenUnlocks: Readonly<Record<string, string | readonly string[]>>;
  /** An incremental run becomes a full events pass (removals detected) when the last one is older. */
  fullPassEveryHours: number;
  /** Query parameter names: the catalog's table with the configuration's overrides. */
  params: MonitoringParams;
  /** Which development details a run fetches (default: high importance, last 30 days, 200 a run). */
  details?: DetailsBacklog;
}

/** Development details are one request each: the pending ones a run fetches, newest first. */
export interface DetailsBacklog {
  minimumImportance: 'not-important' | 'low' | 'medium' | 'high';
  /** Only developments started this recently; null for any age. */
  maxAgeDays: number | null;
  /** At most this many a run (0: none). */
  maxPerRun: number;
}
