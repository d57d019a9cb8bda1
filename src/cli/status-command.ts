// `ds-mirror status`: per stream, from the database alone: last success, live rows, lag, last error,
// and whether a checkpoint will resume an interrupted pass; the totals the daemon's /metrics exports
// (rows synced, requests, errors over every run, webhook deliveries received).
import type { Command } from 'commander';
import { allStreams } from '../catalog/index.js';
import type { CliIo } from './io.js';
import { readMirrorStats } from '../scheduler/index.js';
import { commandContext, openConfiguredStore } from './context.js';
import { formatTable } from './table.js';
import { planQuotas, usageOf } from '../budget/index.js';
import { DEFAULT_DETAILS, detailsBacklog } from '../monitoring/development-details.js';
import { syncSettings } from '../sync/settings.js';
import { renderUsage } from './budget-command.js';

export function statusCommand(program: Command, io: CliIo): void {
  program
    .command('status')
    .description('Show each stream: last success, rows, lag, last error, pending checkpoint')
    .option('--json', 'print JSON instead of a table')
    .action(async (flags: { json?: boolean }, command: Command) => {
      const ctx = commandContext(command, io);
      const store = await openConfiguredStore(ctx);
      try {
        const now = Date.now();
        const totals = await readMirrorStats(store, now);
        const rows = [];
        for (const stream of allStreams()) {
          const t = totals.streams.find((s) => s.stream === stream.name);
          const state = await store.getState(stream.name);
          const count = (await store.db
            .selectFrom(stream.table)
            .select((eb) => eb.fn.countAll().as('n'))
            .$if(stream.kind !== 'fanout' || stream.shape === 'record', (q) => q.where('deleted_at', 'is', null))
            .executeTakeFirst()) as { n: number | string } | undefined;
          const last = state?.lastSuccessAt ? Date.parse(state.lastSuccessAt) : null;
          rows.push({
            stream: stream.name,
            rows: Number(count?.n ?? 0),
            lastSuccess: state?.lastSuccessAt ?? null,
            lagSeconds: last === null ? null : Math.round((now - last) / 1000),
            checkpoint: state?.checkpoint ?? null,
            lastError: state?.lastError ?? null,
            synced: { inserted: t?.inserted ?? 0, updated: t?.updated ?? 0, deleted: t?.deleted ?? 0 },
            requests: t?.requests ?? 0,
            errors: t?.errors ?? 0,
          });
        }
        // The receiver's deliveries, a stream of their own for whoever reads this table.
        const { received, lastReceivedAt } = totals.deliveries;
        const lastDelivery = lastReceivedAt ? Date.parse(lastReceivedAt) : null;
        rows.push({
          stream: 'webhook-deliveries', rows: received, lastSuccess: lastReceivedAt,
          lagSeconds: lastDelivery === null ? null : Math.round((now - lastDelivery) / 1000), checkpoint: null, lastError: null,
          synced: { inserted: received, updated: 0, deleted: 0 }, requests: 0, errors: 0,
        });
        if (flags.json) {
          io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
          return;
        }
        io.stdout.write(`${formatTable(
          ['stream', 'rows', 'last success', 'lag', 'resumes', 'synced +/~/-', 'requests', 'errors', 'last error'],
          rows.map((r) => [
            r.stream, r.rows, r.lastSuccess ?? 'never', r.lagSeconds === null ? null : humanLag(r.lagSeconds), r.checkpoint ? 'yes' : null,
            `${r.synced.inserted}/${r.synced.updated}/${r.synced.deleted}`, r.requests, r.errors, r.lastError,
          ]),
        )}\n`);
        // The budget section: what the plan has left, and the details still waiting (ds-mirror budget says more).
        const settings = syncSettings(ctx.config);
        const backlog = await detailsBacklog(store, settings.monitoring.details ?? DEFAULT_DETAILS);
        io.stdout.write(`\nRequests against the plan's quotas:\n${renderUsage(await usageOf(store, planQuotas(ctx.config.limits), new Date(now)))}\n`);
        io.stdout.write(`Development details waiting: ${backlog.inScope} in the backlog's scope, ${backlog.pending} in all\n`);
      } finally {
        await store.close();
      }
    });
}

function humanLag(seconds: number): string {
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)}m`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)}h`;
  return `${Math.round(seconds / 86_400)}d`;
}
