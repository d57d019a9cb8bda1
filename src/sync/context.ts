// What every stream runner is given: the client, the store, the run's settings, and where to report.
import type { Logger } from 'pino';
import type { ApiClient } from '../client/index.js';
import type { FanoutSettings } from '../catalog/types.js';
import type { MonitoringParams } from '../catalog/query-params.js';
import type { Store, StreamRunStats, WriteCounts } from '../store/types.js';
import type { ParseShare } from './parse-budget.js';

/** Which parents a fan-out covers: every live row, the first N by the parent's order, or given ids/slugs. */
import type { Selection } from '../config.js';

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

export interface Progress {
  start(stream: string, expected: number | null): void;
  advance(stream: string, stats: Readonly<StreamRunStats>): void;
  finish(stream: string, stats: Readonly<StreamRunStats>): void;
}

export interface StreamContext {
  client: ApiClient;
  store: Store;
  logger: Logger;
  settings: SyncSettings;
  progress: Progress;
  /** Aborted when the run must stop (SIGTERM, daemon shutdown): the page in flight commits, nothing new starts. */
  signal: AbortSignal;
  /**
   * What ends a request already asked for (default `signal`): the run's stop, not a sibling variant's
   * failure, which stops the others only at their next page.
   */
  requestSignal?: AbortSignal;
  now: () => string;
  stats: StreamRunStats;
  /** The stream's share of the run's budget of records parsed and not yet written, shared by its lists. */
  parsed: ParseShare;
}

export function emptyStats(stream: string): StreamRunStats {
  return {
    stream,
    fetched: 0,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    deleted: 0,
    errors: 0,
    requests: 0,
    durationMs: 0,
    outcome: 'success',
    error: null,
  };
}

/** Adds one write's counts (or none, when nothing was written) to a stream's stats or another tally. */
export function addWrites(total: WriteCounts, counts: WriteCounts | null | undefined): void {
  if (!counts) return;
  total.inserted += counts.inserted;
  total.updated += counts.updated;
  total.unchanged += counts.unchanged;
}

export const silentProgress: Progress = { start() {}, advance() {}, finish() {} };
