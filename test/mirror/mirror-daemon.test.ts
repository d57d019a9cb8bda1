// @end-to-end
// The daemon a program starts from its configuration alone (`openMirror(config).daemon()`), on both
// stores: the preflight records the configured jobs (v_jobs), /healthz answers `ok` with the jobs of the
// configuration, a start-up run of a never-synced stream fills it, and a stop within the bound closes the
// store (the mirror opens it again when asked). A stop asked while it starts ends the start: null.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { loadConfig, openMirror } from '../../src/index.js';
import { defaultJobs } from '../../src/scheduler/index.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore } from '../helpers/stores.js';
import { healthz, waitFor } from '../scheduler/scrape.js';

let sandbox: Sandbox;
let dir: string;
let configFile: string;
beforeAll(async () => {
  sandbox = await startSandbox({ start: PINNED_START, scale: 0.2, seed: 12 });
  dir = mkdtempSync(join(tmpdir(), 'ds-mirror-mirror-daemon-'));
  configFile = join(dir, 'config.json');
  // Every job waits for a yearly schedule, but one: the glossary's, which runs at start (never synced).
  const jobs = Object.fromEntries(defaultJobs.map((j) => [j.name, { schedule: '0 0 1 1 *', enabled: false }]));
  const jobsDir = join(dir, 'jobs');
  writeFileSync(configFile, JSON.stringify({ timezone: 'UTC', jobs, jobsDir }));
  mkdirSync(jobsDir);
  writeFileSync(
    join(jobsDir, 'glossary.json'),
    JSON.stringify({ name: 'glossary', description: 'the glossary', schedule: '0 0 1 1 *', streams: ['glossary'], mode: 'incremental' }),
  );
});
afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const env = () => ({ DS_BASE_URL: sandbox.url, DS_API_KEY: sandbox.apiKey });

for (const dialect of dialects) {
  describe(`a mirror's daemon (${dialect})`, () => {
    it('starts from the configuration: jobs recorded, `ok`, the never-synced job run at start, closed at stop', async () => {
      const t = await openTestStore(dialect);
      const config = loadConfig({ config: configFile, db: t.url, dbSchema: t.schema }, env());
      const mirror = openMirror(config, { logger: pino({ level: 'silent' }) });
      try {
        const daemon = await mirror.daemon({ metricsPort: 0, receiver: false });
        expect(daemon).not.toBeNull();
        const health = await waitFor('the start-up run', async () => {
          const { body } = await healthz(daemon!.url);
          return body.startup.every((s) => s.state === 'done') ? body : undefined;
        });
        expect(health.status).toBe('ok');
        expect(health.startup.map((s) => s.job)).toEqual(['glossary']);
        expect(health.jobs.filter((j) => j.enabled).map((j) => j.name)).toEqual(['glossary']);
        expect(await daemon!.stop()).toBe(true);
        const store = await mirror.store(); // closed at the stop: opened again
        const recorded = await store.db.selectFrom('scheduled_jobs').select(['job', 'enabled']).orderBy('job').execute();
        expect(recorded.map((r) => r.job)).toEqual([...defaultJobs.map((j) => j.name), 'glossary'].sort());
        const glossary = await store.db
          .selectFrom('glossary')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow();
        expect(Number(glossary.n)).toBeGreaterThan(0);
      } finally {
        await mirror.close();
        await t.cleanup();
      }
    });
  });
}

describe("a mirror's daemon stopped while it starts", () => {
  it('returns null: nothing ran', async () => {
    const t = await openTestStore('sqlite');
    const config = loadConfig({ config: configFile, db: t.url }, env());
    const mirror = openMirror(config, { logger: pino({ level: 'silent' }) });
    try {
      expect(await mirror.daemon({ metricsPort: 0, receiver: false, stopped: Promise.resolve() })).toBeNull();
    } finally {
      await mirror.close();
      await t.cleanup();
    }
  });
});
