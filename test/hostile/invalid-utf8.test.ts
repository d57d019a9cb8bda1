// Bytes that are not UTF-8 inside a page: the record that holds them is quarantined with the reason,
// as the receiver refuses such a delivery, and the rest of its page is written; never stored as U+FFFD.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { liveRecords, syncOnce } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore } from '../helpers/stores.js';
import { startLyingProxy, type LyingProxy } from './lying-proxy.js';

// One list the sync parses itself (/v1), one the client parses (an envelope family), one of monitoring.
const CASES = [
  { stream: 'chains', table: 'chains', path: '/v1/chains', field: '"title":"' },
  { stream: 'token-unlocks', table: 'token_unlock_assets', path: '/token-unlocks/v1/assets', field: '"name":"' },
  { stream: 'monitoring-categories', table: 'monitoring_categories', path: '/monitoring/v2/categories', field: '"name":"' },
];

let sandbox: Sandbox;
let proxy: LyingProxy;
beforeAll(async () => {
  sandbox = await startSandbox({ start: PINNED_START, scale: 0.3, seed: 8 });
  // The first record of each page gets a 0xFF byte at the start of its name or title (U+E000 is the proxy's mark).
  proxy = await startLyingProxy(
    sandbox,
    (_url, body) => body,
    (url, text) => {
      const c = CASES.find((c) => url.pathname === c.path);
      return c ? text.replace(c.field, `${c.field}\uE000`) : text;
    },
  );
});
afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
});

for (const dialect of dialects) {
  describe(`bytes that are not UTF-8 on ${dialect}`, () => {
    it('quarantine the record that holds them and write the rest of the page', async () => {
      const t = await openTestStore(dialect);
      try {
        const result = await syncOnce(
          t.store,
          proxy,
          CASES.map((c) => c.stream),
        );
        for (const c of CASES) {
          const outcome = result.streams.find((s) => s.stream === c.stream)!;
          expect([c.stream, outcome.outcome, outcome.errors]).toEqual([c.stream, 'partial', 1]);
          const held = await t.store.db.selectFrom('quarantine').select('reason').where('stream', '=', c.stream).execute();
          expect(held).toEqual([{ reason: expect.stringMatching(/bytes that are not UTF-8/) }]);
          const rows = await t.store.db
            .selectFrom(c.table as never)
            .select('raw' as never)
            .execute();
          expect(rows.length).toBeGreaterThan(0);
          for (const r of rows as { raw: unknown }[]) expect(JSON.stringify(r.raw)).not.toContain('\uFFFD');
        }
        const chains = await liveRecords(t.store, 'chains', ['id']);
        expect(chains.size).toBe(sandbox.records('chains').length - 1);
      } finally {
        await t.cleanup();
      }
    });
  });
}
