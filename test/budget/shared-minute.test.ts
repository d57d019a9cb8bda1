// @real-clock
// Three workers of one PostgreSQL database against a service that counts requests per calendar minute
// (the sandbox's gateway, on wall time) at the figure they are configured with: they share the minute
// through the database, so the service refuses none. Scaled down to 40 a minute (45 requests), and the
// gateway's minute to a sixth of a real one (its wall clock runs six times as fast from the start): the
// workers pace at 240 a real minute, 40 a gateway minute, so the run crosses a gateway minute in 11 s,
// not 66. The pacing is real (the database's clock, real sleeps) and so is the gateway's 429.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { quotaGate } from '../../src/budget/index.js';
import { createClient } from '../../src/client/index.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { openTestStore, type TestStore } from '../helpers/stores.js';

const PER_MINUTE = 40;
/** Gateway minutes per real minute. The pacer's margin (1 s a window) shrinks by as much: 167 ms real. */
const SPEED = 6;
let sandbox: Sandbox;
let t: TestStore;

beforeAll(async () => {
  const origin = Date.now() / 1000;
  const wallClock = () => origin + (Date.now() / 1000 - origin) * SPEED;
  sandbox = await startSandbox({ start: PINNED_START, scale: 0.1, seed: 2, quota: `monitoring=${PER_MINUTE}/min`, wallClock });
  t = await openTestStore('postgres');
});
afterAll(async () => {
  await t?.cleanup();
  await sandbox?.close();
});

describe('the shared minute on PostgreSQL', () => {
  it(`three workers paced at ${PER_MINUTE} a minute together are never refused by a ${PER_MINUTE}-a-minute gateway`, async () => {
    const stores = [t.store, await t.openAnother(), await t.openAnother()];
    const limits = { monitoring: { requestsPerMinute: PER_MINUTE * SPEED, concurrency: 4 } };
    const clients = stores.map((store) =>
      createClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, limits, gate: quotaGate(store, limits), retries: 0 }),
    );
    try {
      // 15 requests each, all at once: 45 in all, more than one minute's 40; alone each paces itself at
      // 40 a minute, so together they would send 45 within about a third of a minute (and be refused).
      const results = await Promise.allSettled(
        clients.flatMap((c) => Array.from({ length: 15 }, () => c.get('/monitoring/v2/categories'))),
      );
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
    const report = sandbox.quota();
    expect([report.refused, report.exceeded, report.families.monitoring.requests]).toEqual([0, false, 45]);
  });
});
