// @end-to-end
// SIGTERM ends `ds-mirror sync --full` (the CLI, a child process; the assets and two small lists beside
// them) within its stop bound whatever the failing stream is doing: waiting out retries of a 503 (the run itself stops, records it and exits 3), or
// a request that never answers (the bound exits the process with 3, and the next run takes the stream
// back at once). The lie is told by a proxy in front of the sandbox, on both stores.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { defaultJobs } from '../../src/scheduler/job-files.js';
import { syncOnce } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { waitFor } from '../scheduler/scrape.js';
import { startFaultyProxy, type Fault, type FaultyProxy } from './faulty-proxy.js';
import { LAUNCHER_FLAGS } from '../helpers/launcher.js';
import { closingGraceMs } from '../../src/cli/stop-signal.js';

/** The bound watched; the closing grace past it is as long (src/cli/stop-signal.ts): the process is gone 2 s after the signal. */
const STOP_TIMEOUT_S = 1;
/** Where the run stops itself, the bound is not what is watched: generous, so a busy machine cannot reach it. */
const GENEROUS_STOP_TIMEOUT_S = 120;
/** Longer than any test here: a request that lasts it has not ended by itself. */
const NEVER_MS = 600_000;

let sandbox: Sandbox;
let dir: string;
beforeAll(async () => {
  sandbox = await startSandbox({ start: PINNED_START, scale: 0.1, seed: 8 }); // 150 tokens: two pages
  dir = mkdtempSync(join(tmpdir(), 'ds-mirror-stop-'));
});
afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The CLI's `sync assets chains glossary --full` (or `command`) through `proxyUrl`; resolves with its exit code and output once it exits. */
function spawnSync(
  t: TestStore,
  proxyUrl: string,
  config: object,
  command = ['sync', 'assets', 'chains', 'glossary', '--full', '--no-progress'],
  stopTimeoutS = STOP_TIMEOUT_S,
) {
  const file = join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify({ timeoutMs: NEVER_MS, ...config }));
  const db = t.schema ? ['--db', t.url, '--db-schema', t.schema] : ['--db', t.url];
  const child = spawn(
    process.execPath,
    [...LAUNCHER_FLAGS, 'bin/ds-mirror.js', '--config', file, ...db, ...command, '--stop-timeout', String(stopTimeoutS)],
    {
      env: { ...process.env, DS_BASE_URL: proxyUrl, DS_API_KEY: sandbox.apiKey, DS_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += String(d)));
  child.stderr.on('data', (d) => (err += String(d)));
  const exited = new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, out, err })),
  );
  return { child, exited };
}

// The exit past the bound waits the closing grace too: as long as the bound, 1 to 5 s (a short bound is
// answered within about twice it: the 1 s bound below exits 2 s after the signal).
it('the closing grace past the stop bound is as long as the bound, between 1 and 5 s', () => {
  expect([0, 1_000, 2_000, 30_000].map(closingGraceMs)).toEqual([1_000, 1_000, 2_000, 5_000]);
});

/** Whether `url` asks for token assets past page 1: where the lies are told. */
const pastFirstTokenPage = (url: URL) =>
  url.pathname === '/v1/assets' && url.searchParams.get('asset_class') === 'token' && url.searchParams.get('page') !== '1';

for (const dialect of dialects) {
  describe(`SIGTERM ends sync --full with a stream stuck (${dialect})`, () => {
    // One mirror and one proxy for the three (a mirror holds one service's address): each case sets the
    // lie it needs and reads its own run's rows; the faults are counted from the case's start.
    let t: TestStore;
    let proxy: FaultyProxy;
    let fault: Fault | null = null;
    beforeAll(async () => {
      t = await openTestStore(dialect);
      proxy = await startFaultyProxy(sandbox, (url) => (fault && pastFirstTokenPage(url) ? fault : null));
    });
    afterAll(async () => {
      await proxy?.close();
      await t?.cleanup();
    });
    /** Tells `lie` from now on; the faults told since. */
    const lie = (told: Fault) => {
      fault = told;
      const from = proxy.faults();
      return () => proxy.faults() - from;
    };

    it('while it waits out the retries of a 503: the run stops itself, records it and exits 3', async () => {
      const faults = lie({ status: 503, body: '{"error":"unavailable"}' });
      try {
        const cli = spawnSync(t, proxy.url, { retries: 1000 }, undefined, GENEROUS_STOP_TIMEOUT_S);
        await waitFor('the 503 retried', () => (faults() >= 3 ? true : undefined), 120_000);
        cli.child.kill('SIGTERM');
        const { code, out, err } = await cli.exited;
        expect(code).toBe(3);
        expect(out).toMatch(/run \d+: stopped/);
        expect(err).not.toMatch(/still running/);
        const assets = await t.store.db
          .selectFrom('sync_run_streams')
          .selectAll()
          .where('stream', '=', 'assets')
          .orderBy('run_id', 'desc')
          .executeTakeFirst();
        expect(assets?.outcome).toBe('stopped');
        expect(await t.store.leaseHolder('sync:assets')).toBeFalsy();
      } finally {
        fault = null;
      }
    }, 180_000);

    it('while a request never answers: the bound exits 3, and the next run takes the stream at once', async () => {
      const faults = lie({ hang: true });
      try {
        const cli = spawnSync(t, proxy.url, {});
        await waitFor('the request that never answers sent', () => (faults() >= 1 ? true : undefined), 120_000);
        cli.child.kill('SIGTERM');
        const { code, err } = await cli.exited; // long before the request's own time-out (NEVER_MS)
        expect(code).toBe(3);
        expect(err).toMatch(/still running 2 s after the signal \(stop bound 1 s\): exiting/);
        fault = null;
        const next = await syncOnce(t.store, proxy, ['assets'], { settings: { mode: 'full' } });
        expect(next.streams.map((s) => [s.stream, s.outcome])).toEqual([['assets', 'success']]);
      } finally {
        fault = null;
      }
    }, 180_000);

    it('the daemon too: a run on a request that never answers cannot hold it past its bound (exit 1)', async () => {
      const faults = lie({ hang: true });
      try {
        const only = { 'monthly-assets': { schedule: '0 0 1 1 *' } }; // run at start, then yearly
        const off = Object.fromEntries(defaultJobs.filter((j) => j.name !== 'monthly-assets').map((j) => [j.name, { enabled: false }]));
        const daemon = ['daemon', '--metrics-port', '0', '--no-receiver', '--run-at-start', 'all'];
        const cli = spawnSync(t, proxy.url, { timezone: 'UTC', jobs: { ...off, ...only } }, daemon);
        await waitFor('the request that never answers sent', () => (faults() >= 1 ? true : undefined), 120_000);
        cli.child.kill('SIGTERM');
        const { code, err } = await cli.exited;
        expect(code).toBe(1);
        expect(err).toMatch(/runs still going after 1000 ms|still running 2 s after the signal \(stop bound 1 s\)/);
      } finally {
        fault = null;
      }
    }, 180_000);
  });
}
