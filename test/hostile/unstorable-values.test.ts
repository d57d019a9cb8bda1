// Values no store can hold as sent, inside a page: bytes that are not UTF-8 (quarantined with the reason,
// as the receiver refuses such a delivery; never stored as U+FFFD) and a number beyond the double range,
// 1e400 (quarantined alike on both stores: SQLite would have stored Inf, JSON text a null). The rest of
// the page is written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { v1Lists } from '../../src/catalog/v1.js';
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

const chains = v1Lists.find((s) => s.name === 'chains')!;
let sandbox: Sandbox;
let proxy: LyingProxy;
/** What the proxy puts in the first record of each page: a byte that is not UTF-8, or a number too big. */
let lie: 'not utf-8' | 'overflow' = 'not utf-8';
beforeAll(async () => {
  sandbox = await startSandbox({ start: PINNED_START, scale: 0.3, seed: 8 });
  proxy = await startLyingProxy(
    sandbox,
    (_url, body) => body,
    (url, text) => {
      // The first chain of every page gets a field no double can hold.
      if (lie === 'overflow') return url.pathname === chains.path ? text.replace('{"id":', '{"overflow":1e400,"id":') : text;
      // A 0xFF byte at the start of the name or title (U+E000 is the proxy's mark).
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
  describe(`values no store holds as sent, on ${dialect}`, () => {
    it('bytes that are not UTF-8 quarantine the record that holds them; the rest of the page is written', async () => {
      lie = 'not utf-8';
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

    it('a number beyond the double range quarantines its record with the reason and writes the others', async () => {
      lie = 'overflow';
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
