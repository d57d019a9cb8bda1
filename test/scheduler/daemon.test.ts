// @end-to-end
// The daemon in-process against the loopback sandbox and a temp SQLite file, with schedules in
// seconds: jobs fire on their schedules, never overlap themselves or each other's streams, a failing
// job records its error and recovers on the next tick, and /healthz and /metrics say so.
import pino from 'pino';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { createClient } from '../../src/client/index.js';
import { configureJobs, type JobDef } from '../../src/scheduler/index.js';
import { startDaemon, type Daemon, type DaemonOptions } from '../../src/mirror/daemon.js';
import type { Store } from '../../src/store/index.js';
import { settings, syncOnce } from '../helpers/mirror.js';
import { openTestStore } from '../helpers/stores.js';
import { makeEnvelope, sign } from '../receiver/webhook-fixtures.js';
import { healthz, metrics, waitFor } from './scrape.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { UsageLedger } from '../../src/budget/usage-ledger.js';

const silent = pino({ level: 'silent' });
const fast = { requestsPerMinute: 10_000_000, concurrency: 16 };
let sandbox: Sandbox;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ start: PINNED_START, scale: 0.2 });
});
afterEach(async () => {
  sandbox.setChaos(null);
  while (cleanups.length) await cleanups.pop()!();
});
afterAll(async () => {
  await sandbox?.close();
});

function job(name: string, schedule: string, streams: string[]): JobDef {
  return { name, description: name, schedule, streams, mode: 'incremental' };
}

async function daemonWith(jobs: JobDef[], extra: Partial<DaemonOptions> = {}): Promise<{ daemon: Daemon; store: Store }> {
  const test = await openTestStore('sqlite');
  // No retries: a 5xx fails the run at once, as a long outage would.
  const client = createClient({
    baseUrl: sandbox.url,
    apiKey: sandbox.apiKey,
    retries: 0,
    timeoutMs: 120_000,
    limits: { v1: fast, open: fast, charts: fast },
  });
  const daemon = await startDaemon({
    store: test.store,
    client,
    logger: silent,
    settings: settings(),
    jobs: configureJobs(jobs, {}, 'UTC'),
    http: { port: 0, host: '127.0.0.1' },
    stopTimeoutMs: 10_000,
    ...extra,
  });
  cleanups.push(async () => {
    await daemon.stop();
    await client.close();
    await test.cleanup();
  });
  return { daemon, store: test.store };
}

interface RunRow {
  id: number;
  started_at: string;
  finished_at: string | null;
  outcome: string | null;
  streams: string;
}

async function runsOf(store: Store, stream: string): Promise<RunRow[]> {
  const rows = (await store.db.selectFrom('sync_runs').selectAll().orderBy('id').execute()) as RunRow[];
  return rows.filter((r) => (JSON.parse(r.streams) as string[]).includes(stream));
}

const status = (d: Daemon, name: string) => d.scheduler.status().find((s) => s.name === name)!;

describe('daemon', () => {
  it('fires each job on its schedule', async () => {
    const { daemon, store } = await daemonWith([
      job('every-second', '* * * * * *', ['glossary']),
      job('every-third', '*/3 * * * * *', ['chains']),
    ]);
    // Three runs span three seconds at least, one of them a multiple of 3: the */3 job ticks in it.
    await waitFor('three runs of every-second', () =>
      status(daemon, 'every-second').runs >= 3 && !status(daemon, 'every-second').running ? true : undefined,
    );
    await daemon.stop();
    const fast = await runsOf(store, 'glossary');
    const slow = await runsOf(store, 'chains');
    expect(fast.length).toBeGreaterThanOrEqual(3);
    expect(fast.every((r) => r.outcome === 'success')).toBe(true);
    // The */3 job starts only on seconds divisible by 3 (scheduler-clock.test.ts proves the exact fire
    // times on fake timers; here a busy machine may start a run hundreds of milliseconds after its tick).
    for (const r of slow) expect(new Date(r.started_at).getUTCSeconds() % 3).toBe(0);
    // At most one run a tick: consecutive starts at least a tick apart. That every tick fires is
    // scheduler-clock.test.ts's, on fake timers: here a machine at load 45 held a timer past its next tick
    // (8 runs over 9 s, none counted skipped), which no bound on the wall clock can rule out.
    const span = Math.round((Date.parse(fast.at(-1)!.started_at) - Date.parse(fast[0].started_at)) / 1000);
    expect(span).toBeGreaterThanOrEqual(fast.length - 1);
    expect(slow.length).toBeGreaterThanOrEqual(1);
    expect(slow.length).toBeLessThanOrEqual(Math.ceil((span + 1) / 3) + 1); // the */3 ticks over the same seconds
  });

  it('skips a tick while the same job is still running, and counts the skip', async () => {
    sandbox.setChaos({ latencyMs: 1300 }); // one request, so one run takes longer than the 1 s between ticks
    // The first run at start (a tick's overlap rules), so the tick that finds it running comes within a second.
    const { daemon, store } = await daemonWith([job('slow', '* * * * * *', ['glossary'])], { startupRun: 'all' });
    await waitFor('two finished runs and a skipped tick', () => {
      const s = status(daemon, 'slow');
      return s.runs >= 2 && s.skipped >= 1 && !s.running ? s : undefined;
    });
    const scraped = await metrics(daemon.url);
    const skipped = status(daemon, 'slow').skipped;
    expect(scraped.get('ds_mirror_job_skipped_total{job="slow"}')).toBe(skipped);
    await daemon.stop();
    const runs = await runsOf(store, 'glossary');
    expect(runs.length).toBe(status(daemon, 'slow').runs);
    for (let i = 1; i < runs.length; i++) {
      expect(Date.parse(runs[i].started_at)).toBeGreaterThanOrEqual(Date.parse(runs[i - 1].finished_at!));
    }
  });

  it('never runs one stream in two jobs at once: the second job leaves it to the first', async () => {
    sandbox.setChaos({ latencyMs: 300 });
    const { daemon, store } = await daemonWith([job('a', '* * * * * *', ['glossary']), job('b', '* * * * * *', ['glossary', 'chains'])]);
    // Generous: on a machine at load 10+ a run of each job can take many seconds (a time-out catches a hang, it is no measure).
    await waitFor(
      'two runs of each job',
      () => (status(daemon, 'a').runs >= 2 && status(daemon, 'b').runs >= 2 ? true : undefined),
      540_000,
    );
    await daemon.stop();
    const ticksRun = status(daemon, 'a').runs + status(daemon, 'b').runs;
    const passes = (await store.db.selectFrom('sync_run_streams').selectAll().execute()) as {
      stream: string;
      outcome: string;
      error: string | null;
    }[];
    // No pass lost to the engine's lease (which would be recorded as failed "being synced by another worker").
    expect(passes.filter((p) => p.outcome !== 'success')).toEqual([]);
    // Both jobs tick in the same second: whichever starts first syncs glossary, the other does not.
    const glossaryPasses = passes.filter((p) => p.stream === 'glossary').length;
    expect(glossaryPasses).toBeGreaterThanOrEqual(2);
    expect(glossaryPasses).toBeLessThan(ticksRun);
  }, 600_000);

  it('answers /healthz "degraded" while a family is held, naming it and its renewal, and "ok" once it is released', async () => {
    const test = await openTestStore('sqlite');
    const ledger = new UsageLedger(test.store);
    const until = new Date(Date.now() + 3_600_000);
    await ledger.hold({ family: 'monitoring', until, reason: 'quota exceeded' }, new Date());
    const { daemon } = await daemonWith([job('tick', '* * * * * *', ['glossary'])], { store: test.store });
    cleanups.push(() => test.cleanup());
    const held = await healthz(daemon.url);
    expect(held.status).toBe(200); // up: the other families' jobs run
    expect(held.body.status).toBe('degraded');
    expect(held.body.holds).toEqual([{ family: 'monitoring', until: until.toISOString(), reason: 'quota exceeded' }]);
    await ledger.releaseHold('monitoring', new Date());
    // Read again after the next run (or when the answer is a few seconds old).
    await waitFor('ok after the release', async () => ((await healthz(daemon.url)).body.status === 'ok' ? true : undefined));
  });

  it("records a failing job's error in sync_runs and recovers on the next tick; /healthz and /metrics report both", async () => {
    sandbox.setChaos({ rate5xx: 1 });
    const testStart = Date.now();
    // The first run at start, the recovery on a tick.
    const { daemon, store } = await daemonWith([job('flaky', '* * * * * *', ['glossary'])], { startupRun: 'all' });
    await waitFor('a failed run', () => (status(daemon, 'flaky').lastOutcome === 'failed' ? true : undefined));
    const failedHealth = await healthz(daemon.url);
    expect(failedHealth.status).toBe(200); // alive; the job's state says what went wrong
    expect(failedHealth.body.jobs[0]).toMatchObject({ name: 'flaky', lastOutcome: 'failed', lastSuccessAt: null });
    expect(failedHealth.body.jobs[0].lastError).toMatch(/^glossary: .*50[03]/);

    sandbox.setChaos(null);
    await waitFor('a successful run after the failure', () => (status(daemon, 'flaky').lastOutcome === 'success' ? true : undefined));
    const health = await healthz(daemon.url);
    expect(health.body.status).toBe('ok');
    expect(health.body.jobs[0]).toMatchObject({ name: 'flaky', lastOutcome: 'success', lastError: null, enabled: true });
    // Times of this test's runs (not "within N seconds of now": a busy machine may take longer).
    expect(Date.parse(health.body.jobs[0].lastSuccessAt!)).toBeGreaterThan(testStart);
    expect(Date.parse(health.body.jobs[0].nextRunAt!)).toBeGreaterThan(testStart);
    const scraped = await metrics(daemon.url);
    await daemon.stop();

    const runs = await runsOf(store, 'glossary');
    const passes = (await store.db.selectFrom('sync_run_streams').selectAll().orderBy('run_id').execute()) as {
      run_id: number;
      outcome: string;
      error: string | null;
      inserted: number;
      requests: number;
    }[];
    const firstFailed = runs.findIndex((r) => r.outcome === 'failed');
    expect(firstFailed).toBe(0);
    expect(passes[0]).toMatchObject({ run_id: runs[0].id, outcome: 'failed', inserted: 0 });
    expect(passes[0].error).toMatch(/50[03]/);
    const recovered = runs.findIndex((r) => r.outcome === 'success');
    expect(recovered).toBeGreaterThan(0);
    const state = await store.getState('glossary');
    expect(state).toMatchObject({ lastError: null, checkpoint: null });
    expect(state!.lastSuccessAt).not.toBeNull();

    const rows = Number(
      (
        await store.db
          .selectFrom('glossary')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(rows).toBe(passes.reduce((n, p) => n + p.inserted, 0));
    expect(rows).toBeGreaterThan(0);
    expect(scraped.get('ds_mirror_rows_synced_total{stream="glossary",change="inserted"}')).toBe(rows);
    expect(scraped.get('ds_mirror_stream_failed_passes_total{stream="glossary"}')).toBeGreaterThanOrEqual(1);
    expect(scraped.get('ds_mirror_job_runs_total{job="flaky",outcome="failed"}')).toBeGreaterThanOrEqual(1);
    expect(scraped.get('ds_mirror_job_runs_total{job="flaky",outcome="success"}')).toBeGreaterThanOrEqual(1);
    expect(scraped.get('ds_mirror_stream_lag_seconds{stream="glossary"}')).toBeLessThan(10);
    expect(scraped.get('ds_mirror_http_requests_total{family="v1"}')).toBe(passes.reduce((n, p) => n + p.requests, 0));
    expect(scraped.get('ds_mirror_job_duration_seconds_count{job="flaky",outcome="success"}')).toBeGreaterThanOrEqual(1);
  });

  it('runs the webhook receiver in the same process; /metrics counts deliveries stored and refused', async () => {
    const secret = 'whsec-daemon-test';
    const { daemon, store } = await daemonWith([job('idle', '0 0 1 1 *', ['glossary'])], { receiver: { port: 0, secrets: [secret] } });
    expect(daemon.receiverUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);
    const body = JSON.stringify(makeEnvelope());
    const post = (headers: Record<string, string>) =>
      request(daemon.receiverUrl!, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } }).then(
        async (r) => {
          await r.body.dump();
          return r.statusCode;
        },
      );
    expect(await post({ 'x-webhook-signature': sign(secret, body, Math.floor(Date.now() / 1000)) })).toBe(200);
    expect(await post({ 'x-webhook-signature': sign(secret, body, Math.floor(Date.now() / 1000)) })).toBe(200); // a retry
    expect(await post({})).toBe(401);
    expect(await post({ 'x-webhook-signature': sign('wrong', body, Math.floor(Date.now() / 1000)) })).toBe(401);

    const stored = await store.db.selectFrom('webhook_deliveries').select('id').execute();
    expect(stored).toHaveLength(1);
    const scraped = await metrics(daemon.url);
    expect(scraped.get('ds_mirror_webhook_deliveries_received_total')).toBe(1);
    expect(scraped.get('ds_mirror_webhook_deliveries_duplicate_total')).toBe(1);
    expect(scraped.get('ds_mirror_webhook_deliveries_refused_total{reason="missing_signature"}')).toBe(1);
    expect([...scraped].filter(([k]) => k.startsWith('ds_mirror_webhook_deliveries_refused_total')).reduce((n, [, v]) => n + v, 0)).toBe(2);
    const health = await healthz(daemon.url);
    expect(health.body.receiver).toMatchObject({ url: daemon.receiverUrl, received: 2, duplicates: 1 });
    expect(health.body.jobs[0]).toMatchObject({ name: 'idle', running: false, runs: 0, lastSuccessAt: null });
  });

  it('runs at start the jobs holding a stream never synced, and /healthz says what runs next and when', async () => {
    const test = await openTestStore('sqlite');
    expect((await syncOnce(test.store, sandbox, ['chains'])).outcome).toBe('success');
    const client = createClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, limits: { v1: fast, open: fast, charts: fast } });
    // Yearly schedules: nothing would run for months without the start-up run.
    const jobs = configureJobs([job('fills-glossary', '0 0 1 1 *', ['glossary']), job('chains-again', '0 0 2 1 *', ['chains'])], {}, 'UTC');
    let clock = Date.now();
    const daemon = await startDaemon({
      store: test.store,
      client,
      logger: silent,
      settings: settings(),
      jobs,
      http: { port: 0, host: '127.0.0.1' },
      startupRun: 'never-synced',
      now: () => clock,
    });
    cleanups.push(async () => {
      await daemon.stop();
      await client.close();
      await test.cleanup();
    });
    const done = await waitFor(
      'the start-up run',
      async () => {
        const body = (await healthz(daemon.url)).body;
        return body.startup.every((s) => s.state === 'done') ? body : undefined;
      },
      30_000,
    );
    expect(done.startup).toEqual([{ job: 'fills-glossary', reason: 'never synced: glossary', state: 'done' }]);
    expect(status(daemon, 'fills-glossary')).toMatchObject({ runs: 1, lastOutcome: 'success' });
    expect(status(daemon, 'chains-again').runs).toBe(0);
    expect(await runsOf(test.store, 'glossary')).toHaveLength(1);
    // The soonest tick, counted on the daemon's clock.
    const nextYear = new Date(Date.UTC(new Date().getUTCFullYear() + 1, 0, 1)).toISOString();
    expect(done.next).toMatchObject({ job: 'fills-glossary', at: nextYear });
    clock = Date.parse(nextYear) - 90_000;
    expect((await healthz(daemon.url)).body.next).toEqual({ job: 'fills-glossary', at: nextYear, inSeconds: 90 });
  });

  it('runs nothing at start unless asked (the library default), every enabled job with "all"', async () => {
    const idle = await daemonWith([job('later', '0 0 1 1 *', ['glossary'])]);
    expect((await healthz(idle.daemon.url)).body.startup).toEqual([]);
    const all = await daemonWith([job('later', '0 0 1 1 *', ['glossary'])], { startupRun: 'all' });
    await waitFor(
      'the start-up run',
      () => (status(all.daemon, 'later').runs === 1 && !status(all.daemon, 'later').running ? true : undefined),
      30_000,
    );
    expect(status(idle.daemon, 'later').runs).toBe(0);
  });

  it('gives up waiting for a run after the stop bound, and says so', async () => {
    sandbox.setChaos({ latencyMs: 2500 });
    // A yearly job run at start: the run begins at once, no tick awaited.
    const { daemon } = await daemonWith([job('stuck', '0 0 1 1 *', ['glossary'])], { stopTimeoutMs: 300, startupRun: 'all' });
    await waitFor('the run to start', () => (status(daemon, 'stuck').running ? true : undefined));
    expect((await healthz(daemon.url)).status).toBe(200);
    const started = Date.now();
    expect(await daemon.stop()).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290); // it waited for the bound...
    expect(status(daemon, 'stuck').running).toBe(true); // ...and not for the run
  });
});
