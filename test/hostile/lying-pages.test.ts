// Deletions need evidence: a page that lies (empty or short in the middle of a list, or short once at its
// end) deletes nothing, and the run says what it held back; an honest removal still deletes. A proxy in
// front of the sandbox tells the lies, over real HTTP, on both stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { pageNumber } from '../../src/catalog/paginator.js';
import type { StreamDef } from '../../src/catalog/types.js';
import { v1Lists } from '../../src/catalog/v1.js';
import { runSync } from '../../src/sync/engine.js';
import { fastClient, liveRecords, settings, silent } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { startLyingProxy } from './lying-proxy.js';

/** The chart list at 10 a page, not the service's 100: scale 1's 50 charts make five pages (scale 5's 250 made three). */
const PAGE = 10;
const charts = { ...v1Lists.find((s) => s.name === 'charts')!, paginator: pageNumber(PAGE) } as StreamDef & (typeof v1Lists)[number];

/** What the proxy does to `/v1/charts` pages: keep this many records of a page, `times` times (then honest). */
type Lie = { page: number; keep: number; times: number };

async function lyingProxy(sandbox: Sandbox) {
  let lie: Lie | null = null;
  const proxy = await startLyingProxy(sandbox, (url, body) => {
    if (!lie || lie.times <= 0 || url.pathname !== '/v1/charts' || Number(url.searchParams.get('page')) !== lie.page) return body;
    lie.times--;
    return { ...body, data: body.data.slice(0, lie.keep) };
  });
  return { ...proxy, lie: (l: Lie | null) => void (lie = l) };
}

for (const dialect of dialects) {
  describe(`lying pages on ${dialect}`, () => {
    let sandbox: Sandbox;
    let proxy: Awaited<ReturnType<typeof lyingProxy>>;
    let t: TestStore;
    const live = async () => (await liveRecords(t.store, charts.table, charts.key)).size;
    const full = async () => {
      const client = fastClient(proxy);
      try {
        return await runSync({ client, store: t.store, logger: silent, settings: settings({ mode: 'full' }), streams: [charts] });
      } finally {
        await client.close();
      }
    };

    beforeAll(async () => {
      sandbox = await startSandbox({ start: PINNED_START, scale: 1, seed: 3 });
      proxy = await lyingProxy(sandbox);
      t = await openTestStore(dialect);
      expect((await full()).outcome).toBe('success');
      expect(await live()).toBe(sandbox.records('charts').length);
      expect(await live()).toBeGreaterThan(3 * PAGE); // more than three pages
    });
    afterAll(async () => {
      await t?.cleanup();
      await proxy?.close();
      await sandbox?.close();
    });

    it.each([
      ['an empty middle page', { page: 2, keep: 0, times: 100 }],
      ['a short middle page', { page: 2, keep: 4, times: 100 }],
      ['a last page short once', { page: 5, keep: 2, times: 1 }],
    ])('%s deletes nothing and says what it held back', async (_name, lie) => {
      const before = await live();
      proxy.lie({ ...lie });
      const result = await full();
      proxy.lie(null);
      const stream = result.streams[0]!;
      expect([stream.outcome, stream.deleted]).toEqual(['success', 0]);
      expect(stream.notice).toMatch(
        /rows of charts not deleted( \(\d+% of the list\))?: page \d+ held \d+ records, (yet page \d+ still served \d+|then \d+ when read again); the next complete pass decides/,
      );
      expect(await live()).toBe(before);
      // Kept with the stream's state, so `status` says it too.
      expect((await t.store.getState('charts'))?.lastNotice).toBe(stream.notice);
      const history = await t.store.db.selectFrom('row_history').select('change').where('table_name', '=', 'charts').execute();
      expect(history.filter((h) => h.change === 'deleted')).toEqual([]);
    });

    it('an honest removal still deletes, after one request confirms the end', async () => {
      const change = await sandbox.advance({ seconds: 3600, updateFraction: 0, addFraction: 0, removeFraction: 0.02 });
      const removed = change.resources.charts?.removed.length ?? 0;
      expect(removed).toBeGreaterThan(0);
      const result = await full();
      expect([result.streams[0]!.outcome, result.streams[0]!.deleted, result.streams[0]!.notice ?? null]).toEqual([
        'success',
        removed,
        null,
      ]);
      expect(await live()).toBe(sandbox.records('charts').length);
    });
  });
}
