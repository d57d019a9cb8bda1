// One mirror, one service, in the library itself: runSync (what the CLI, the daemon and the demo all use)
// refuses to write another service's records into a mirror, before writing anything, unless told to switch.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { resolveStreams } from '../../src/catalog/index.js';
import { createClient } from '../../src/client/index.js';
import { runSync } from '../../src/sync/engine.js';
import { syncSettings } from '../../src/sync/settings.js';
import { dialects, openTestStore } from '../helpers/stores.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

let a: Sandbox;
let b: Sandbox;
beforeAll(async () => {
  [a, b] = await Promise.all([
    startSandbox({ start: PINNED_START, scale: 0.1, seed: 1 }),
    startSandbox({ start: PINNED_START, scale: 0.1, seed: 2 }),
  ]);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

for (const dialect of dialects) {
  describe(`the mirrored service (${dialect})`, () => {
    it('a run against another service is refused and writes nothing; switching is explicit', async () => {
      const t = await openTestStore(dialect);
      const logger = pino({ level: 'silent' });
      const sync = async (sb: Sandbox, switchService?: boolean) => {
        const client = createClient({ baseUrl: sb.url, apiKey: sb.apiKey });
        try {
          return await runSync({
            client,
            store: t.store,
            logger,
            settings: syncSettings({}),
            streams: resolveStreams(['chains']),
            switchService,
          });
        } finally {
          await client.close();
        }
      };
      try {
        expect((await sync(a)).outcome).toBe('success');
        const runs = async () => (await t.store.db.selectFrom('sync_runs').selectAll().execute()).length;
        const before = await runs();
        await expect(sync(b)).rejects.toThrow(/this mirror holds http:\/\/127\.0\.0\.1:\d+, not/);
        expect(await runs()).toBe(before); // refused before the run was even recorded
        expect((await sync(b, true)).outcome).toBe('success');
        const held = await t.store.db.selectFrom('mirrored_service').select('base_url').execute();
        expect(held.map((r) => r.base_url)).toEqual([b.url.replace(/\/+$/, '')]);
      } finally {
        await t.cleanup();
      }
    });
  });
}
