// `ds-mirror status`: per stream, from the database alone: last success, live rows, lag, last error,
// and whether a checkpoint will resume an interrupted pass; the totals the daemon's /metrics exports
// (rows synced, requests, errors over every run, webhook deliveries received).
import type { Command } from 'commander';
import { allStreams } from '../catalog/index.js';
import { liveRows } from '../observability/status-page/status-queries.js';
import type { Config } from '../config.js';
import type { Store } from '../store/types.js';
import type { CliIo } from './io.js';
import { readMirrorStats, type MirrorStats } from '../scheduler/index.js';
import { commandContext, openMirrorToRead } from './context.js';
import { formatTable } from './table.js';
import { FAMILY_NAMES, planQuotas, UsageLedger, usageOf } from '../budget/index.js';
import { renderUsage } from './budget-command.js';
import { writeStatusHtml } from './status-html.js';
import { allHolds, DEFAULT_DETAILS, detailsBacklog, syncSettings, type Hold } from '../sync/index.js';
import { unresolvedViewLine, unresolvedViews } from '../receiver/index.js';
import { changeLine, readSchemaChanges, type SchemaChange } from '../sync/index.js';
import { count } from '../figures.js';

export function statusCommand(program: Command, io: CliIo): void {
  program
    .command('status')
    .description('Show each stream: last success, rows, lag, last error, pending checkpoint')
    .option('--json', 'print JSON instead of a table')
    .option('--html <file>', "write the daemon's status page (/status) to a file instead")
    .action(async (flags: { json?: boolean; html?: string }, command: Command) => {
      const ctx = commandContext(command, io);
      const store = await openMirrorToRead(ctx);
      try {
        const now = Date.now();
        if (flags.html !== undefined) return await writeStatusHtml(store, ctx.config, flags.html, new Date(now));
        const totals = await readMirrorStats(store, now);
        const holds = await allHolds(store);
        const changes = await readSchemaChanges(store);
        const rows = [...(await streamRows(store, totals, now, holds, changes)), deliveriesRow(totals, now, changes)];
        if (flags.json) {
          io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
          return;
        }
        io.stdout.write(`${renderStatus(rows)}\n`);
        io.stdout.write(renderHolds(holds));
        io.stdout.write(await renderUnresolved(store, ctx.config.monitoring?.views ?? []));
        io.stdout.write(renderChanges(changes));
        io.stdout.write(await renderBudgetSection(store, ctx.config, now));
      } finally {
        await store.close();
      }
    });
}

interface StatusRow {
  stream: string;
  rows: number;
  lastSuccess: string | null;
  lagSeconds: number | null;
  checkpoint: unknown;
  lastError: string | null;
  /** The last error's stable code (`DS_DRIFT`: the service changed its shape), when it had one. */
  lastErrorCode: string | null;
  synced: { inserted: number; updated: number; deleted: number };
  requests: number;
  errors: number;
  /** Deletions a complete pass held back (rows kept live it was not served), per variant, with why. */
  heldDeletions: { variant: string; rows: number; reason: string; since: string }[];
  /**
   * Changes of the service's shape seen in its records (v_schema_changes), the most recently seen first;
   * `part`: seen in records of another kind the stream fetches (`details`: monitoring development details).
   */
  schemaChanges: (Omit<SchemaChange, 'stream'> & { part?: string })[];
}

/** One row per catalog stream: its state, its live rows, and its totals over every run. */
async function streamRows(
  store: Store,
  totals: MirrorStats,
  now: number,
  holds: readonly Hold[],
  changes: readonly SchemaChange[],
): Promise<StatusRow[]> {
  const rows: StatusRow[] = [];
  for (const stream of allStreams()) {
    const t = totals.streams.find((s) => s.stream === stream.name);
    const state = await store.getState(stream.name);
    rows.push({
      stream: stream.name,
      rows: await liveRows(store, stream),
      lastSuccess: state?.lastSuccessAt ?? null,
      lagSeconds: secondsSince(state?.lastSuccessAt ?? null, now),
      checkpoint: state?.checkpoint ?? null,
      lastError: state?.lastError ?? (state?.lastNotice ? `notice: ${state.lastNotice}` : null),
      lastErrorCode: state?.lastError ? state.lastErrorCode : null,
      synced: { inserted: t?.inserted ?? 0, updated: t?.updated ?? 0, deleted: t?.deleted ?? 0 },
      requests: t?.requests ?? 0,
      errors: t?.errors ?? 0,
      heldDeletions: holds
        .filter((h) => h.stream === stream.name)
        .map((h) => ({ variant: h.variant, rows: h.rows, reason: h.reason, since: h.updatedAt })),
      schemaChanges: changesOf(changes, stream.name),
    });
  }
  return rows;
}

/** The receiver's deliveries, a stream of their own for whoever reads this table. */
function deliveriesRow(totals: MirrorStats, now: number, changes: readonly SchemaChange[]): StatusRow {
  const { received, lastReceivedAt } = totals.deliveries;
  return {
    stream: 'webhook-deliveries',
    rows: received,
    lastSuccess: lastReceivedAt,
    lagSeconds: secondsSince(lastReceivedAt, now),
    checkpoint: null,
    lastError: null,
    lastErrorCode: null,
    synced: { inserted: received, updated: 0, deleted: 0 },
    requests: 0,
    errors: 0,
    heldDeletions: [],
    // The changes of shape its payloads showed (webhook_set_aside holds those it could not read).
    schemaChanges: changes.filter((c) => c.stream === 'webhook-deliveries').map(({ stream: _, ...c }) => c),
  };
}

/** Rows held back, or nothing to say. */
function heldText(rows: number): string | null {
  return rows > 0 ? count(rows) : null;
}

function secondsSince(at: string | null, now: number): number | null {
  return at ? Math.round((now - Date.parse(at)) / 1000) : null;
}

function renderStatus(rows: readonly StatusRow[]): string {
  return formatTable(
    ['stream', 'rows', 'last success', 'lag', 'resumes', 'synced +/~/-', 'held', 'requests', 'errors', 'last error'],
    rows.map((r) => [
      r.stream,
      count(r.rows),
      r.lastSuccess ?? 'never',
      r.lagSeconds === null ? null : humanLag(r.lagSeconds),
      r.checkpoint ? 'yes' : null,
      `${count(r.synced.inserted)}/${count(r.synced.updated)}/${count(r.synced.deleted)}`,
      heldText(r.heldDeletions.reduce((n, h) => n + h.rows, 0)),
      count(r.requests),
      count(r.errors),
      // Said first when the service changed its shape: the fix is not in the mirror (operations.md).
      r.lastErrorCode === 'DS_DRIFT' ? `the service changed shape (DS_DRIFT): ${r.lastError}` : r.lastError,
    ]),
  );
}

/** Why each held deletion waits, and how to end the wait. */
function renderHolds(holds: readonly Hold[]): string {
  if (holds.length === 0) return '';
  const lines = holds.map((h) => `- ${h.stream}${h.variant ? ` (${h.variant})` : ''}, ${h.updatedAt}: ${h.reason}`);
  return `\nDeletions held back (rows kept live):\n${lines.join('\n')}\n`;
}

/** The configured monitoring views that stand for no view: the receiver refuses their deliveries. */
async function renderUnresolved(store: Store, views: readonly string[]): Promise<string> {
  const names = await unresolvedViews(store, views);
  if (names.length === 0) return '';
  return `\nMonitoring views that do not resolve (correct monitoring.views or DS_MONITORING_VIEWS; a view new at the service is known after ds-mirror sync monitoring-views):\n${names.map((n) => `- ${unresolvedViewLine(n)}`).join('\n')}\n`;
}

/** A stream's changes of shape, its parts' (`<stream>/<part>` in v_schema_changes) with their part. */
function changesOf(changes: readonly SchemaChange[], stream: string): StatusRow['schemaChanges'] {
  return changes
    .filter((c) => c.stream === stream || c.stream.startsWith(`${stream}/`))
    .map(({ stream: s, ...c }) => (s === stream ? c : { ...c, part: s.slice(stream.length + 1) }));
}

/** The changes of the service's shape, newest first (all of them: `ds-mirror schema --changes`). */
function renderChanges(changes: readonly SchemaChange[]): string {
  if (changes.length === 0) return '';
  const shown = changes.slice(0, 10).map((c) => `- ${changeLine(c)}`);
  const more = changes.length > shown.length ? `\n(${changes.length - shown.length} more: ds-mirror schema --changes)` : '';
  return `\nChanges of the service's shape (v_schema_changes):\n${shown.join('\n')}${more}\n`;
}

/** What the plan has left, and the details still waiting (`ds-mirror budget` says more). */
async function renderBudgetSection(store: Store, config: Readonly<Config>, now: number): Promise<string> {
  const settings = syncSettings(config);
  const backlog = await detailsBacklog(store, settings.monitoring.details ?? DEFAULT_DETAILS);
  const usage = renderUsage(await usageOf(store, planQuotas(config.limits), new Date(now)));
  return (
    `\nRequests against the plan's quotas:\n${usage}\n` +
    (await requestsMade(store)) +
    `Development details waiting: ${count(backlog.inScope)} in the backlog's scope, ${count(backlog.pending)} in all\n`
  );
}

/** Every request this mirror's runs sent, as its usage ledger counted them (every worker, retries included). */
async function requestsMade(store: Store): Promise<string> {
  const days = await new UsageLedger(store).history('1970-01-01'); // every day: the ledger's days begin with the mirror, and PostgreSQL has no year 0;
  if (days.length === 0) return 'Requests this mirror made: none yet\n';
  const by = new Map<string, number>();
  for (const d of days) by.set(d.family, (by.get(d.family) ?? 0) + d.requests);
  const since = days.map((d) => d.day).sort()[0];
  const parts = Object.keys(FAMILY_NAMES)
    .filter((f) => (by.get(f) ?? 0) > 0)
    .map((f) => `${count(by.get(f)!)} ${FAMILY_NAMES[f]}`);
  return `Requests this mirror made since ${since} (its usage ledger): ${parts.join(', ') || 'none'}\n`;
}

function humanLag(seconds: number): string {
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)}m`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)}h`;
  return `${Math.round(seconds / 86_400)}d`;
}
