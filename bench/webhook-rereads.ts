// What webhooks add to a day of the default schedule's events job at the real sizes (`--profile real`):
// every view alerts by webhook to a receiver on the mirror, the sandbox's clock runs a day in the
// job's 5-minute steps (new developments, on existing events and new ones, make the deliveries), and
// each step runs the events job. Counted: the requests that re-read older events webhooks named
// (`eventIds`), the details of developments only webhooks brought into the backlog, and the day's
// monitoring requests; then the default schedule's projection (as `ds-mirror budget` makes it).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { startSandbox } from '../sandbox/index.js';
import { planQuotas, projectSchedule } from '../src/budget/index.js';
import { allStreams, resolveStreams } from '../src/catalog/index.js';
import { type ApiClient, createClient } from '../src/client/index.js';
import { startReceiver } from '../src/receiver/index.js';
import { configureJobs, jobStreams } from '../src/scheduler/index.js';
import { defaultJobs } from '../src/scheduler/job-files.js';
import { openStore } from '../src/store/index.js';
import { runSync } from '../src/sync/engine.js';
import { syncSettings } from '../src/sync/settings.js';
import { MIRROR_SCHEMA } from '../src/mirror-schema/index.js';

const STEP_SECONDS = 300;
const STEPS = 288;
// One new development on an existing event and one new event (about 5.5 developments) every 30 minutes:
// about 310 new developments and 48 new events a day, near the published 300 and 56. `--load N` makes
// the change N times as frequent (a stress figure).
const loadAt = process.argv.indexOf('--load');
const LOAD = loadAt < 0 ? 1 : Number(process.argv[loadAt + 1]);
const CHANGE_EVERY = Math.max(1, Math.round(6 / LOAD));
const CHANGE = { updateFraction: 0.00005, addFraction: 0.00005, removeFraction: 0 };
const STILL = { updateFraction: 0, addFraction: 0, removeFraction: 0 };
const silent = pino({ level: 'silent' });
const n = (v: number) => Math.round(v).toLocaleString('en-US');

const sandbox = await startSandbox({ profile: 'real', seed: 42, start: new Date('2025-06-01T12:00:00Z') });
// Counts do not depend on the pace: the real allowances (200 a minute) are lifted so the day runs in minutes.
sandbox.setQuota(null);
const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-bench-rereads-'));
const store = await openStore({ migrations: MIRROR_SCHEMA, url: `sqlite:${join(dir, 'mirror.db')}`, logger: silent });
const secret = randomBytes(16).toString('hex');
const receiver = await startReceiver({ store, port: 0, secrets: [secret], logger: silent });
for (const view of sandbox.monitoring.views()) {
  sandbox.monitoring.setAlertPolicy(view.id, {
    cadence: 'immediately',
    delivery_types: ['webhook'],
    webhook_url: receiver.url,
    webhook_secret: secret,
  });
}
const settings = syncSettings({});
const eventIds = settings.monitoring.params.events.eventIds;
const fast = { requestsPerMinute: 1_000_000, concurrency: 8 };

/** The client, counting the requests that carry event ids (the re-reads). */
function countingClient(counts: { rereads: number }): ApiClient {
  const client = createClient({
    baseUrl: sandbox.url,
    apiKey: sandbox.apiKey,
    limits: { v1: fast, charts: fast, open: fast, tokenUnlocks: fast, monitoring: fast },
    clock: () => sandbox.now().getTime(),
  });
  return new Proxy(client, {
    get(target, prop, receiver) {
      if (prop !== 'get') return Reflect.get(target, prop, receiver);
      return (path: string, query?: Record<string, unknown>, opts?: never) => {
        if (query && eventIds in query) counts.rereads++;
        return target.get(path, query as never, opts);
      };
    },
  });
}

async function eventsRun(counts: { rereads: number; requests: number; details: number }): Promise<void> {
  const client = countingClient(counts);
  try {
    const result = await runSync({ client, store, logger: silent, settings, streams: resolveStreams(['monitoring-events']) });
    if (result.outcome !== 'success') throw new Error(`events run: ${result.outcome}`);
    counts.requests += client.stats.requests;
    counts.details += result.streams.reduce((sum, s) => sum + (s.details ?? 0), 0);
  } finally {
    await client.close();
  }
}

// The first sync and the details backlog drained (as on the schedule's first half hour), before the day.
const setup = { rereads: 0, requests: 0, details: 0 };
await eventsRun(setup);
for (let last = -1; last !== setup.details; ) {
  last = setup.details;
  await sandbox.advance({ seconds: STEP_SECONDS, ...STILL });
  await eventsRun(setup);
}

const day = { rereads: 0, requests: 0, details: 0 };
const started = performance.now();
for (let step = 0; step < STEPS; step++) {
  await sandbox.advance({ seconds: STEP_SECONDS, ...(step % CHANGE_EVERY === 0 ? CHANGE : STILL) });
  await sandbox.monitoring.idle();
  await eventsRun(day);
}
const received = receiver.stats();
const pairs = Number(
  (
    (await store.db
      .selectFrom('alert_deliveries')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst()) as { n: unknown }
  ).n,
);
const named = Number(
  (
    (await store.db
      .selectFrom('alert_deliveries')
      .select((eb) => eb.fn.count('event_id').distinct().as('n'))
      .executeTakeFirst()) as { n: unknown }
  ).n,
);

const schedule = configureJobs(defaultJobs, {}, 'UTC').map((job) => ({ job, streams: jobStreams(job) }));
const projection = await projectSchedule(store, settings, schedule, planQuotas(), sandbox.now(), allStreams());
const events = projection.jobs.find((j) => j.job === 'monitoring-events')!;

const out = [
  `| a day of the events job (${STEPS} runs, 5 minutes apart; change every ${CHANGE_EVERY * 5} minutes) | requests |`,
  '|---|---|',
  `| webhook deliveries received (retries included) / (delivery, view) pairs / events they named | ${n(received.received)} / ${n(pairs)} / ${n(named)} |`,
  `| re-reads of older events webhooks named (\`eventIds\`, 100 a request) | ${n(day.rereads)} |`,
  `| details fetched (webhooks' first, then the backlog's) | ${n(day.details)} |`,
  `| every monitoring request of the events job that day | ${n(day.requests)} |`,
  '',
  `Projected by \`ds-mirror budget\` on this mirror: the events job ${n(events.perRun.reduce((s, c) => s + c.requests, 0))} requests a run, ${n(events.perMonth.monitoring)} a month; every job: ${n(projection.perDay.monitoring)} monitoring requests on the busiest day, ${n(projection.perMonth.monitoring)} a month; ${projection.problems.length === 0 ? 'the schedule fits every quota' : `problems: ${projection.problems.join('; ')}`}. Wall time of the day's runs: ${((performance.now() - started) / 1000).toFixed(0)} s.`,
];
await receiver.close();
await store.close();
rmSync(dir, { recursive: true, force: true });
await sandbox.close();
process.stdout.write(`${out.join('\n')}\n`);
