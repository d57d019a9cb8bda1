// @end-to-end
// The daemon's /healthz while its PostgreSQL is away: `starting` (not a crash) while the start waits on a
// database that accepts and says nothing, `degraded` with the reason while the database is down, `ok`
// again once it is back, and a stop that ends within its bound meanwhile. The tool's connections go
// through a relay the test breaks; a SQLite file cannot be held or cut like a server, so this is
// PostgreSQL's (the probes of a starting daemon on SQLite: test/scheduler/daemon-inputs.test.ts).
import { createServer } from 'node:net';
import pino from 'pino';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { configureJobs } from '../../src/scheduler/index.js';
import { startDaemon, type DaemonHealth } from '../../src/mirror/daemon.js';
import { openStore, type Store } from '../../src/store/index.js';
import { fastClient, settings, silent } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { openTestStore, type TestStore } from '../helpers/stores.js';
import { waitFor } from '../scheduler/scrape.js';
import { startCuttableTcp, type CuttableTcp } from './cuttable-tcp.js';
import { MIRROR_SCHEMA } from '../../src/mirror-schema/index.js';

let sandbox: Sandbox;
let relay: CuttableTcp;
let store: Store;

let t: TestStore;

beforeAll(async () => {
  sandbox = await startSandbox({ start: PINNED_START, scale: 0.2, seed: 5 });
  // A test mirror (migrated already), opened again through the relay: the daemon's connections are the
  // ones the test breaks.
  t = await openTestStore('postgres');
  relay = await startCuttableTcp(t.url);
  store = await openStore({ migrations: MIRROR_SCHEMA, url: relay.url, schema: t.schema, logger: pino({ level: 'silent' }) });
});
afterAll(async () => {
  relay?.set('pass');
  await store?.close();
  await relay?.close();
  await t?.cleanup();
  await sandbox?.close();
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** /healthz, or null while nothing listens yet. */
async function probe(url: string): Promise<{ status: number; body: DaemonHealth } | null> {
  try {
    const res = await request(`${url}/healthz`);
    return { status: res.statusCode, body: (await res.body.json()) as DaemonHealth };
  } catch {
    return null;
  }
}

describe('the daemon while its PostgreSQL is away', () => {
  it('says starting while the start waits on the database, ok once it answers, degraded while it is down, ok after', async () => {
    const client = fastClient(sandbox);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    relay.set('hold');
    const starting = startDaemon({
      store,
      client,
      logger: silent,
      settings: settings(),
      jobs: configureJobs(
        [{ name: 'yearly', description: 'y', schedule: '0 0 1 1 *', streams: ['glossary'], mode: 'incremental' }],
        {},
        'UTC',
      ),
      http: { port, host: '127.0.0.1' },
      stopTimeoutMs: 5_000,
    });
    const early = await waitFor('an answer while starting', () => probe(url).then((r) => r ?? undefined));
    expect([early.status, early.body.status]).toEqual([200, 'starting']);
    relay.set('pass');
    const daemon = await starting;
    try {
      const ok = await waitFor('ok', () => probe(url).then((r) => (r?.body.status === 'ok' ? r : undefined)));
      expect([ok.status, ok.body.reasons]).toEqual([200, []]);

      relay.set('cut');
      const down = await waitFor('degraded', () => probe(url).then((r) => (r?.body.status === 'degraded' ? r : undefined)));
      expect(down.status).toBe(200);
      expect(down.body.reasons).toEqual([expect.stringMatching(/^the database does not answer: /)]);

      relay.set('pass');
      const back = await waitFor('ok again', () => probe(url).then((r) => (r?.body.status === 'ok' ? r : undefined)));
      expect(back.body.reasons).toEqual([]);

      relay.set('cut');
      await waitFor('degraded again', () => probe(url).then((r) => (r?.body.status === 'degraded' ? true : undefined)));
      expect(await daemon.stop()).toBe(true); // nothing was running: a clean stop, database or not
    } finally {
      relay.set('pass');
      await daemon.stop();
      await client.close();
    }
  }, 120_000);
});
