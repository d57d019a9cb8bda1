// The table a run ends with (`sync`, the demo): per stream what was read from the service and what was
// written to the mirror, with a legend that says what each count is.
import type { StreamRunStats } from '../store/types.js';
import { formatTable } from './table.js';

/** What the summary's counts are: records come from the service, rows go to the mirror's tables. */
export const SUMMARY_LEGEND = [
  'records read: what the service sent (a page served unchanged since the last run is skipped unparsed: its records count as read and unchanged)',
  "rows: of the stream's tables (an event also writes its assets and developments, so it can write more rows than it reads records); errors: records quarantined or not fetched",
].join('\n');

/**
 * `saidBelow`: messages the report says once below the table (a spent quota, a refused key), each with the
 * few words its rows say instead.
 */
export function runSummary(streams: readonly StreamRunStats[], saidBelow: ReadonlyMap<string, string> = new Map()): string {
  return formatTable(
    ['stream', 'records read', 'rows new', 'rows changed', 'rows unchanged', 'rows deleted', 'errors', 'requests', 'seconds', 'outcome'],
    streams.map((s) => [
      s.stream,
      s.fetched,
      s.inserted,
      s.updated,
      s.unchanged,
      s.deleted,
      s.errors,
      s.requests,
      (s.durationMs / 1000).toFixed(1),
      outcomeNote(s, saidBelow),
    ]),
  );
}

/** The outcome with what a person should know: the error, a notice, parents with no record upstream. */
export function outcomeNote(s: StreamRunStats, saidBelow: ReadonlyMap<string, string> = new Map()): string {
  const below = s.error ? [...saidBelow].find(([message]) => s.error!.includes(message)) : undefined;
  const error = below ? `${below[1]} (see below)` : s.error;
  const notes = [error, s.notice, s.absent ? `${s.absent} parent(s) with no record upstream` : null].filter(Boolean);
  return notes.length ? `${s.outcome}: ${notes.join('; ')}` : s.outcome;
}
