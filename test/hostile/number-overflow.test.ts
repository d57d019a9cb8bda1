// A number beyond the double range (1e400) is treated alike on both stores: the record is quarantined
// with the reason (SQLite would have stored Inf, JSON text a null), and the rest of its page is written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { v1Lists } from '../../src/catalog/v1.js';
import { liveRecords, syncOnce } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore } from '../helpers/stores.js';
import { startLyingProxy, type LyingProxy } from './lying-proxy.js';

const chains = v1Lists.find((s) => s.name === 'chains')!;
let sandbox: Sandbox;
let proxy: LyingProxy;
beforeAll(async () => {
  sandbox = await startSandbox({ start: PINNED_START, scale: 0.3, seed: 8 });
  // The first chain of every page gets a field no double can hold.
  proxy = await startLyingProxy(
    sandbox,
    (_url, body) => body,
    (url, text) => (url.pathname === chains.path ? text.replace('{"id":', '{"overflow":1e400,"id":') : text),
  );
});
afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
});

for (const dialect of dialects) {
  describe(`a number beyond the double range on ${dialect}`, () => {
    it('quarantines its record with the reason and writes the others', async () => {
      const t = await openTestStore(dialect);
      try {
        const result = await syncOnce(t.store, proxy, ['chains']);
        expect([result.streams[0]!.outcome, result.streams[0]!.errors]).toEqual(['partial', 1]);
        const held = await t.store.db.selectFrom('quarantine').select(['stream', 'reason']).execute();
        expect(held).toEqual([{ stream: 'chains', reason: expect.stringMatching(/a number beyond the double range \(such as 1e400\)/) }]);
        expect((await liveRecords(t.store, chains.table, chains.key)).size).toBe(sandbox.records('chains').length - 1);
      } finally {
        await t.cleanup();
      }
    });
  });
}
