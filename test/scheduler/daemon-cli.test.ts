// @end-to-end
// The real CLI as a child process (`node bin/ds-mirror.js daemon`) against the sandbox and a temp SQLite
// file: SIGTERM in the middle of a sync leaves a consistent database (pages committed with their
// checkpoints, the run recorded as stopped, no lease left), and the next daemon resumes where it stopped.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { healthz, metrics, waitFor } from './scrape.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { MIRROR_SCHEMA } from '../../src/mirror-schema/index.js';
import { cliArgs } from '../helpers/launcher.js';

const STOP_TIMEOUT_S = 20;
const unlimited = { requestsPerMinute: 1_000_000, concurrency: 8 };
let sandbox: Sandbox;
let dir: string;
let store: Store | undefined;
const children: ChildProcess[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ start: PINNED_START, scale: 0.2 });
  dir = mkdtempSync(join(tmpdir(), 'ds-mirror-daemon-'));
  // Only the complete assets pass, every second; one page of a list at a time so a stop lands mid-list.
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      timezone: 'UTC',
      pageWindow: 1,
      limits: { v1: unlimited, monitoring: unlimited, tokenUnlocks: unlimited },
      jobs: {
        'assets-top': { enabled: false },
        'daily-catalog': { enabled: false },
        'weekly-charts': { enabled: false },
        'monitoring-lists': { enabled: false },
        'monitoring-events': { enabled: false },
        'alert-backfill': { enabled: false },
        'monthly-assets': { schedule: '* * * * * *' },
      },
    }),
  );
});

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await store?.close();
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Spawned {
  child: ChildProcess;
  url: string;
  logs: string[];
  exited: Promise<{ code: number | null; at: number }>;
}

async function spawnDaemon(): Promise<Spawned> {
  const child = spawn(
    process.execPath,
    cliArgs([
      '--config',
      join(dir, 'config.json'),
      '--db',
      `sqlite:${join(dir, 'mirror.db')}`,
      'daemon',
      '--metrics-port',
      '0',
      '--stop-timeout',
      String(STOP_TIMEOUT_S),
    ]),
    {
      // The key comes from the environment, never the command line.
      env: { ...process.env, DS_BASE_URL: sandbox.url, DS_API_KEY: sandbox.apiKey, DS_LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  const logs: string[] = [];
  let out = '';
  child.stderr!.on('data', (d) => logs.push(String(d)));
  child.stdout!.on('data', (d) => (out += String(d)));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.on('exit', (code) => resolve({ code, at: Date.now() })),
  );
  const url = await waitFor(
    'the daemon to print its health URL',
    () => {
      if (child.exitCode !== null) throw new Error(`the daemon exited with ${child.exitCode}: ${logs.join('')}`);
      return /health (http:\/\/[\d.:]+)\/healthz/.exec(out)?.[1];
    },
    240_000,
  );
  return { child, url, logs, exited };
}

async function one<T>(sql: Promise<T[]>): Promise<T> {
  const rows = await sql;
  return rows[0];
}

interface Pass {
  run_id: number;
  stream: string;
  outcome: string;
  fetched: number;
  inserted: number;
  error: string | null;
}

describe('ds-mirror daemon (child process)', () => {
  it('stops on SIGTERM at a checkpoint within the bound, and the next daemon resumes there', async () => {
    // Slow pages (a few seconds per list), so SIGTERM finds the assets list half-way even on a busy machine.
    sandbox.setChaos({ latencyMs: 1500 });
    const first = await spawnDaemon();
    store = await openStore({ migrations: MIRROR_SCHEMA, url: `sqlite:${join(dir, 'mirror.db')}` });
    const db = store.db;
    await waitFor('assets half-way (a checkpoint saved)', async () => {
      const state = await store!.getState('assets');
      return state?.checkpoint ? true : undefined;
    });
    const during = await healthz(first.url);
    expect(during.body.jobs.find((j) => j.name === 'monthly-assets')).toMatchObject({ running: true, runs: 1 });
    expect((await metrics(first.url)).get('ds_mirror_job_running{job="monthly-assets"}')).toBe(1);

    const signalled = Date.now();
    first.child.kill('SIGTERM');
    const { code, at } = await first.exited;
    expect(code).toBe(0);
    expect(at - signalled).toBeLessThan(STOP_TIMEOUT_S * 1000);
    expect(first.logs.join('')).toContain('daemon stopped');

    // Consistent: one run, finished and recorded as stopped; no lease left; assets rows = the pages committed.
    const runs = await db.selectFrom('sync_runs').selectAll().execute();
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ outcome: 'stopped' });
    expect(runs[0].finished_at).not.toBeNull();
    expect(await db.selectFrom('leases').selectAll().execute()).toEqual([]);
    const stopped = (await one(db.selectFrom('sync_run_streams').selectAll().where('stream', '=', 'assets').execute())) as Pass;
    expect(stopped).toMatchObject({ outcome: 'stopped', error: null });
    const assetsAfterStop = Number(
      (
        await one(
          db
            .selectFrom('assets')
            .select((eb) => eb.fn.countAll().as('n'))
            .execute(),
        )
      ).n,
    );
    expect(assetsAfterStop).toBe(stopped.inserted);
    expect(assetsAfterStop).toBe(stopped.fetched);
    const total = sandbox.records('assets').length;
    expect(assetsAfterStop).toBeGreaterThan(0);
    expect(assetsAfterStop).toBeLessThan(total);
    expect((await store.getState('assets'))!.checkpoint).not.toBeNull();

    // The next daemon's first run resumes from the checkpoint: it reads only what the first did not.
    sandbox.setChaos(null);
    const second = await spawnDaemon();
    const done = await waitFor(
      'the resumed run to finish',
      async () => {
        const job = (await healthz(second.url)).body.jobs.find((j) => j.name === 'monthly-assets')!;
        // The first daemon's stopped run is in the history; wait for a run of this daemon.
        return job.runs > 0 && !job.running ? job : undefined;
      },
      240_000,
    );
    expect(done).toMatchObject({ lastOutcome: 'success', lastError: null });
    const scraped = await metrics(second.url);
    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);

    const resumed = (await one(
      db
        .selectFrom('sync_run_streams')
        .selectAll()
        .where('stream', '=', 'assets')
        .where('run_id', '=', runs[0].id + 1)
        .execute(),
    )) as Pass;
    expect(resumed.outcome).toBe('success');
    expect(stopped.fetched + resumed.fetched).toBe(total);
    expect(second.logs.join('')).toContain('resuming from checkpoint');
    const live = Number(
      (
        await one(
          db
            .selectFrom('assets')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('deleted_at', 'is', null)
            .execute(),
        )
      ).n,
    );
    expect(live).toBe(total);
    // /metrics agrees with the database: every asset inserted once over the two runs.
    expect(scraped.get('ds_mirror_rows_synced_total{stream="assets",change="inserted"}')).toBeGreaterThanOrEqual(total);
    expect(scraped.get('ds_mirror_stream_lag_seconds{stream="assets"}')).toBeLessThan(60);
    expect(scraped.get('ds_mirror_stream_checkpoint_pending{stream="assets"}')).toBe(0);
  });
});
