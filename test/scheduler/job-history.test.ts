// A restarted daemon still reports each job's last run and last success (from sync_runs), on both stores.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { createClient } from '../../src/client/index.js';
import { configureJobs, type JobDef } from '../../src/scheduler/index.js';
import { startDaemon } from '../../src/mirror/daemon.js';
import { settings } from '../helpers/mirror.js';
import { dialects, openTestStore } from '../helpers/stores.js';
import { healthz } from './scrape.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

const silent = pino({ level: 'silent' });
const fast = { requestsPerMinute: 10_000_000, concurrency: 16 };
// Far-future schedules: the runs here are started by hand (runNow).
const JOBS: JobDef[] = [
  { name: 'charts-job', description: 'charts', schedule: '0 0 1 1 *', streams: ['charts'], mode: 'incremental' },
  { name: 'never-ran', description: 'glossary', schedule: '0 0 1 1 *', streams: ['glossary'], mode: 'incremental' },
];

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ start: PINNED_START, scale: 0.1 });
});
afterAll(async () => {
  await sandbox?.close();
});

for (const dialect of dialects) {
  describe(`job history on ${dialect}`, () => {
    it('survives a daemon restart', async () => {
      const test = await openTestStore(dialect);
      const client = createClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, limits: { v1: fast, open: fast, charts: fast } });
      const start = () =>
        startDaemon({
          store: test.store,
          client,
          logger: silent,
          settings: settings(),
          jobs: configureJobs(JOBS, {}, 'UTC'),
          http: { port: 0, host: '127.0.0.1' },
          stopTimeoutMs: 10_000,
        });
      try {
        const first = await start();
        await first.scheduler.runNow('charts-job');
        const before = first.scheduler.status().find((s) => s.name === 'charts-job')!;
        expect(before.lastOutcome).toBe('success');
        await first.stop();

        const second = await start();
        try {
          const after = second.scheduler.status().find((s) => s.name === 'charts-job')!;
          expect(after).toMatchObject({ lastOutcome: 'success', lastRunId: before.lastRunId, runs: 0 });
          // The run's own finish time (from the database), within a moment of what the first daemon saw.
          expect(Math.abs(Date.parse(after.lastSuccessAt!) - Date.parse(before.lastSuccessAt!))).toBeLessThan(1000);
          const { body } = await healthz(second.url);
          expect(body.jobs.find((j) => j.name === 'charts-job')?.lastSuccessAt).toBe(after.lastSuccessAt);
          expect(body.jobs.find((j) => j.name === 'never-ran')?.lastSuccessAt).toBeNull();
        } finally {
          await second.stop();
        }
      } finally {
        await client.close();
        await test.cleanup();
      }
    });
  });
}
