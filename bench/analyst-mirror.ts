// The mirror the analyst benchmarks read: every stream synced as the daemon keeps them (the monitoring
// views configured, the jobs recorded), the sandbox's clock advanced a day and everything synced again,
// then a quiet monitoring run. The same steps on one sandbox fill several stores with the same rows.
import { pino } from 'pino';
import { resolveStreams } from '../src/catalog/index.js';
import { createClient } from '../src/client/index.js';
import { configureJobs } from '../src/scheduler/configure-jobs.js';
import { defaultJobs } from '../src/scheduler/job-files.js';
import { recordJobs } from '../src/scheduler/record-jobs.js';
import type { Store } from '../src/store/index.js';
import { runSync } from '../src/sync/engine.js';
import { syncSettings } from '../src/sync/settings.js';
import type { Sandbox } from '../sandbox/index.js';

async function sync(store: Store, sb: Sandbox, streams: string[], job?: string): Promise<void> {
  const fast = { requestsPerMinute: 100_000_000, concurrency: 16 };
  const client = createClient({
    baseUrl: sb.url,
    apiKey: sb.apiKey,
    limits: { v1: fast, charts: fast, open: fast, tokenUnlocks: fast, monitoring: fast },
  });
  try {
    const settings = syncSettings({});
    settings.monitoring.views = sb.monitoring.views().map((v) => v.id);
    const run = await runSync({ client, store, logger: pino({ level: 'silent' }), settings, streams: resolveStreams(streams), job });
    if (run.outcome !== 'success') throw new Error(`sync: ${run.outcome}`);
  } finally {
    await client.close();
  }
}

/** Fills every store from one sandbox, step by step (each step into every store before the next). */
export async function buildMirrors(stores: readonly Store[], sb: Sandbox): Promise<void> {
  const each = async (step: (s: Store) => Promise<void>) => {
    for (const store of stores) await step(store);
  };
  await each((s) => recordJobs(s, configureJobs(defaultJobs, {}, 'UTC'), new Date()));
  await each((s) => sync(s, sb, ['all']));
  await sb.advance({ seconds: 86_400, updateFraction: 0.02, addFraction: 0.01, removeFraction: 0.005 });
  await each((s) => sync(s, sb, ['all']));
  await each((s) => sync(s, sb, ['monitoring-events'], 'monitoring-events'));
}
