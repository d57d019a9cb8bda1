// What every stream runner is given: the client, the store, the run's settings, and where to report.
import type { Logger } from 'pino';
import type { ApiClient } from '../client/index.js';
import type { Store, StreamRunStats, WriteCounts } from '../store/types.js';
import type { ParseShare } from './parse-budget.js';

export type { DetailsBacklog, MonitoringSettings, Selection, SyncSettings } from '../requests/run-settings.js';
import type { SyncSettings } from '../requests/run-settings.js';

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
