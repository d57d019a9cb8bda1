// Request economy at the real service's sizes (`--profile real`): the requests of a first sync per quota
// family, of one run of each default job once the mirror is full, a day of the default schedule, and the
// projected month against the standard plan's quotas; and the wall time of a first monitoring sync at
// the real 200 requests a minute. Counts are what the client sent (retries included); the /v1 pace is
// lifted so the bench does not wait out 600 a minute (counts do not depend on it).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { defaultJobs } from '../src/scheduler/job-files.js';
import { startSandbox } from '../sandbox/index.js';
import { planQuotas, projectSchedule, QuotaGate, UsageLedger } from '../src/budget/index.js';
import { allStreams, resolveStreams } from '../src/catalog/index.js';
import type { StreamDef } from '../src/catalog/types.js';
import { createClient, type ApiFamily, type LimitsOption } from '../src/client/index.js';
import { configureJobs, jobStreams } from '../src/scheduler/index.js';
import { openStore } from '../src/store/index.js';
import { runSync } from '../src/sync/engine.js';
import { syncSettings } from '../src/sync/settings.js';
import { MIRROR_SCHEMA } from '../src/mirror-schema/index.js';

const silent = pino({ level: 'silent' });
const fast = { requestsPerMinute: 1_000_000, concurrency: 8 };
const REAL_MONITORING = { requestsPerMinute: 200, concurrency: 4 };
const n = (v: number) => Math.round(v).toLocaleString('en-US');
const FAMILIES = ['v1', 'tokenUnlocks', 'monitoring', 'open'] as const;
type Counts = Record<(typeof FAMILIES)[number], number>;

// A pinned start: the quota month and the schedule's days fall where they fell in RESULTS.md.
const sandbox = await startSandbox({ profile: 'real', seed: 42, start: new Date('2025-06-01T12:00:00Z') });
const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-bench-budget-'));
const store = await openStore({ migrations: MIRROR_SCHEMA, url: `sqlite:${join(dir, 'mirror.db')}`, logger: silent });
const settings = syncSettings({});
const quotas = planQuotas();

async function sync(
  streams: readonly StreamDef[],
  limits: LimitsOption,
  mode: 'full' | 'incremental' = 'incremental',
): Promise<{ counts: Counts; ms: number; outcome: string; details: number }> {
  const gate = new QuotaGate({
    ledger: new UsageLedger(store),
    quotas: planQuotas({ v1: { requestsPerMonth: null } }),
    clock: () => sandbox.now(),
  });
  const client = createClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, limits, gate, clock: () => sandbox.now().getTime() });
  const started = performance.now();
  try {
    const result = await runSync({ client, store, logger: silent, settings: { ...settings, mode }, streams });
    const by = client.stats.byFamily as Record<ApiFamily, number>;
    const details = result.streams.reduce((sum, st) => sum + (st.details ?? 0), 0);
    return {
      counts: { v1: by.v1 + by.charts, tokenUnlocks: by.tokenUnlocks, monitoring: by.monitoring, open: by.open },
      ms: performance.now() - started,
      outcome: result.outcome,
      details,
    };
  } finally {
    await client.close();
  }
}

const row = (name: string, c: Counts, extra = '') => `| ${name} | ${FAMILIES.map((f) => n(c[f])).join(' | ')} |${extra}`;
const out: string[] = [];
const fastAll: LimitsOption = { v1: fast, open: fast, tokenUnlocks: fast, monitoring: fast };

// 1. A first sync of every default stream; the monitoring part once more at the real rate, timed.
const v1First = await sync(resolveStreams(['v1', 'token-unlocks', 'monitoring-categories']), fastAll);
const eventsFirst = await sync(resolveStreams(['monitoring-events']), { ...fastAll, monitoring: REAL_MONITORING });
const first: Counts = {
  v1: v1First.counts.v1,
  tokenUnlocks: v1First.counts.tokenUnlocks,
  monitoring: v1First.counts.monitoring + eventsFirst.counts.monitoring,
  open: v1First.counts.open,
};
out.push('### A first sync (`ds-mirror sync`: every default stream) at real sizes\n');
out.push('| | /v1 (with charts) | token unlocks | monitoring | keyless /v1 (market stats) |', '|---|---|---|---|---|');
out.push(row('requests', first));
out.push(
  `\nThe first monitoring sync (events with their development summaries, and the default details backlog: high importance, last 30 days, 200 a run) at the real 200 requests a minute: **${(eventsFirst.ms / 60_000).toFixed(1)} minutes** for ${n(eventsFirst.counts.monitoring)} requests (${eventsFirst.outcome}). Before the backlog: 110,182 requests, about 9 hours.\n`,
);

// The rest of the details backlog drains over the next runs of the events job (every 5 minutes).
let drainRuns = 0;
let drained = eventsFirst.details;
for (let last = eventsFirst.details; last > 0; drainRuns++) {
  await sandbox.advance({ seconds: 300, updateFraction: 0, addFraction: 0, removeFraction: 0 });
  last = (await sync(resolveStreams(['monitoring-events']), fastAll)).details;
  drained += last;
}
out.push(
  `The details backlog in the default scope (${n(drained)} details) drains over the first sync and ${drainRuns} more runs of the events job, at most 200 a run: ${drainRuns * 5} minutes on the 5-minute schedule.\n`,
);

// 2. One run of each default job on the full mirror, an hour later (0.1% of records changed). The
// events stream's daily full pass (~201 pages) is not in these runs; the projection spreads it over them.
await sandbox.advance({ seconds: 3_600, updateFraction: 0.001, addFraction: 0.0002, removeFraction: 0.0001 });
const schedule = configureJobs(defaultJobs, {}, 'UTC').map((job) => ({ job, streams: jobStreams(job) }));
const projection = await projectSchedule(store, settings, schedule, quotas, sandbox.now(), allStreams());
out.push("### One run of each default job, and the schedule's day and month\n");
out.push(
  '| job | schedule | measured requests a run | projected a run | runs a month | /v1 a month | monitoring a month |',
  '|---|---|---|---|---|---|---|',
);
const day: Counts = { v1: 0, tokenUnlocks: 0, monitoring: 0, open: 0 };
for (const { job, streams } of schedule) {
  const measured = await sync(streams, fastAll, job.mode);
  const total = FAMILIES.reduce((s, f) => s + measured.counts[f], 0);
  const p = projection.jobs.find((j) => j.job === job.name)!;
  const projected = p.perRun.reduce((s, c) => s + c.requests, 0);
  // A typical day: daily and more frequent jobs at their daily count (weekly and monthly ones on their own day).
  const perDay = p.runsPerMonth >= 28 ? p.runsPerDay : 0;
  for (const f of FAMILIES) day[f] += measured.counts[f] * perDay;
  out.push(
    `| ${job.name} | \`${job.schedule}\` | ${n(total)} | ${n(projected)} | ${n(p.runsPerMonth)} | ${n(p.perMonth.v1)} | ${n(p.perMonth.monitoring)} |`,
  );
}
out.push('');
out.push('| | /v1 (with charts) | token unlocks | monitoring | keyless /v1 |', '|---|---|---|---|---|');
// The events stream reads every event once a day (monitoring.fullPassEveryHours), on top of its windows.
const events = (await store.db
  .selectFrom('monitoring_events')
  .select((eb) => eb.fn.countAll().as('n'))
  .where('deleted_at', 'is', null)
  .executeTakeFirst()) as { n: unknown };
day.monitoring += Math.floor(Number(events.n) / 100) + 1;
out.push(row('a typical day (measured runs × runs that day, plus the daily full events pass)', day));
out.push(row('the busiest day (projected: the 1st, with the complete assets pass)', projection.perDay as Counts));
out.push(row('a 31-day month (projected)', projection.perMonth as Counts));
out.push(`| the standard plan's quotas | 2,500 a month | 200 a minute | 200 a minute | – |`);
out.push(
  `\nThe month's /v1 use is ${n(projection.perMonth.v1)} of 2,500 (${Math.round((100 * projection.perMonth.v1) / 2500)}%); ${projection.problems.length === 0 ? 'the schedule fits every quota' : `problems: ${projection.problems.join('; ')}`}. Before this schedule (hourly \`all\` + nightly full): about 34,600 /v1 requests a day.`,
);

await store.close();
rmSync(dir, { recursive: true, force: true });
await sandbox.close();
process.stdout.write(`${out.join('\n')}\n`);
