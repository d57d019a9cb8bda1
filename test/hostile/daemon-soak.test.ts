// @end-to-end
// The daemon left alone: every default job firing every few seconds against a service that faults (5xx,
// 429, resets, cut bodies, proxy pages) while its data moves, and on PostgreSQL its connections cut again
// and again. Whatever each run met, the daemon stays up and healthy, stops cleanly, leaves no run open and
// no lease held, and one quiet full run afterwards brings the mirror level with the service.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { resolveStreams, type ListStream } from '../../src/catalog/index.js';
import { configureJobs, type JobDef } from '../../src/scheduler/index.js';
import { startDaemon } from '../../src/mirror/daemon.js';
import { defaultJobs } from '../../src/scheduler/job-files.js';
import { toRow } from '../../src/sync/row-mapping.js';
import { keyString, openStore, type Store } from '../../src/store/index.js';
import { runSync } from '../../src/sync/engine.js';
import { DEFAULT_DETAILS } from '../../src/requests/details-backlog.js';
import { fastClient, liveRecords, settings, silent } from '../helpers/mirror.js';
import { createOwnCopy, type OwnCopy } from '../helpers/own-copy.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { healthz, waitFor } from '../scheduler/scrape.js';
import { MIRROR_SCHEMA } from '../../src/mirror-schema/index.js';

/** Every default job every few seconds: they overlap each other and, at times, themselves (a tick is skipped). */
const SCHEDULES = ['*/1 * * * * *', '*/2 * * * * *', '*/3 * * * * *', '*/4 * * * * *'];
const RUNS_EACH = 2;
const LISTS = ['assets', 'projects', 'chains', 'metrics', 'sec-filings'] as const;

let sandbox: Sandbox;
beforeAll(async () => {
  // Scale 0.1: every list still a page or more, each run (and the quiet full run) half the rows of 0.2's.
  sandbox = await startSandbox({ start: PINNED_START, scale: 0.1, seed: 11 });
});
afterAll(() => sandbox?.close());

describe.each(['sqlite', 'postgres'] as const)('the daemon left alone (%s)', (dialect) => {
  let own: OwnCopy | undefined;
  let dir: string | undefined;
  afterAll(async () => {
    await own?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('stays up through faults, moving data and cut connections, and one quiet full run levels the mirror', async () => {
    // A copy of the run's migrated template, in a database of its own on PostgreSQL (its connections are cut).
    if (dialect === 'postgres') own = await createOwnCopy('soak');
    else {
      dir = mkdtempSync(join(tmpdir(), 'ds-mirror-soak-'));
      copyFileSync(inject('sqliteTemplate'), join(dir, 'mirror.db'));
    }
    const store: Store = await openStore({
      migrations: MIRROR_SCHEMA,
      url: own ? own.url : `sqlite:${join(dir!, 'mirror.db')}`,
      schema: own?.schema,
      logger: silent,
    });
    const client = fastClient(sandbox, { retries: 3, backoff: { initialMs: 5, maxMs: 100 } });
    const jobs: JobDef[] = defaultJobs.map((j, i) => ({ ...j, schedule: SCHEDULES[i % SCHEDULES.length]! }));
    // The product's details backlog (the helpers' default fetches every development's details).
    const soakSettings = settings({ monitoring: { ...settings().monitoring, details: DEFAULT_DETAILS } });
    const daemon = await startDaemon({
      store,
      client,
      logger: silent,
      settings: soakSettings,
      jobs: configureJobs(jobs, {}, 'UTC'),
      http: { port: 0, host: '127.0.0.1' },
      stopTimeoutMs: 60_000,
    });
    sandbox.setChaos({ rate5xx: 0.04, rate429: 0.02, rateReset: 0.02, rateTruncate: 0.02, rateHtml: 0.01, retryAfterSeconds: 1, seed: 5 });
    let cuts = 0;
    try {
      await waitFor(
        `${RUNS_EACH} runs of every job`,
        async () => {
          await sandbox.advance({ seconds: 3600, updateFraction: 0.02, addFraction: 0.01, removeFraction: 0.01 });
          if (own) cuts += await cutConnections(own);
          await new Promise((resolve) => setTimeout(resolve, 500)); // the data moves, and connections are cut, twice a second
          const health = await healthz(daemon.url).catch((err: Error) => {
            throw new Error(`/healthz did not answer: ${err.message}`, { cause: err });
          });
          expect(health.status).toBe(200);
          return daemon.scheduler.status().every((j) => j.runs >= RUNS_EACH) ? true : undefined;
        },
        280_000,
      );
    } finally {
      sandbox.setChaos(null);
      await daemon.stop();
    }
    expect(cuts > 0).toBe(dialect === 'postgres'); // connections are cut on PostgreSQL only
    const errors = await store.db.selectFrom('sync_run_streams').select('error').where('error', 'is not', null).execute();
    for (const { error } of errors) expect(String(error)).not.toContain('\n'); // each said in one line

    try {
      const streams = resolveStreams(defaultJobs.flatMap((j) => j.streams));
      // `sync --full`: every list read whole from page 1, so what the service no longer serves is deleted too
      // (incremental runs leave that to complete passes: windowed lists never make one, a stopped one resumes).
      // The soak removes far more than maxDeleteShare between complete passes: the operator confirms it.
      const full = { ...soakSettings, mode: 'full' as const, confirmDeletions: true };
      const quiet = await runSync({ client, store, logger: silent, settings: full, streams });
      expect(quiet.streams.filter((s) => s.outcome !== 'success').map((s) => [s.stream, s.outcome, s.error])).toEqual([]);
      // A run whose end could not be recorded (its connection cut at that moment, every try) was closed by this one.
      const runs = await store.db.selectFrom('sync_runs').select(['id', 'outcome', 'finished_at']).execute();
      expect(runs.filter((r) => r.finished_at === null || r.outcome === null)).toEqual([]);
      expect(await store.db.selectFrom('leases').selectAll().execute()).toEqual([]);
      for (const name of LISTS) {
        const list = streams.find((s) => s.name === name) as ListStream;
        const keys = [...(await liveRecords(store, list.table, list.key)).keys()].sort();
        const served = sandbox.records(name).map((r) => {
          const row = toRow(r, list.columns);
          return keyString(list.key.map((k) => row[k]));
        });
        expect(keys.length, name).toBeGreaterThan(0);
        expect(keys, name).toEqual(served.sort());
      }
    } finally {
      await client.close();
      await store.close();
    }
  });
});

/** Terminates every backend of the test's own database, as a restart or failover does; how many. */
async function cutConnections(own: OwnCopy): Promise<number> {
  const { rows } = await own.admin.query(
    'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
    [own.name],
  );
  return rows[0].n;
}
