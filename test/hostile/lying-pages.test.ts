// Deletions need evidence: a page that lies (empty or short in the middle of a list, or short once at its
// end) deletes nothing, and the run says what it held back; an honest removal still deletes. A proxy in
// front of the sandbox tells the lies, over real HTTP, on both stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { v1Lists } from '../../src/catalog/v1.js';
import { liveRecords, syncOnce } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { startLyingProxy } from './lying-proxy.js';

const charts = v1Lists.find((s) => s.name === 'charts')!;

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
    const full = () => syncOnce(t.store, proxy, ['charts'], { settings: { mode: 'full' } });

    beforeAll(async () => {
      sandbox = await startSandbox({ start: PINNED_START, scale: 5, seed: 3 });
      proxy = await lyingProxy(sandbox);
      t = await openTestStore(dialect);
      expect((await full()).outcome).toBe('success');
      expect(await live()).toBe(sandbox.records('charts').length);
      expect(await live()).toBeGreaterThan(200); // three pages of 100 at least
    });
    afterAll(async () => {
      await t?.cleanup();
      await proxy?.close();
      await sandbox?.close();
    });

    it.each([
      ['an empty middle page', { page: 2, keep: 0, times: 100 }],
      ['a short middle page', { page: 2, keep: 40, times: 100 }],
      ['a last page short once', { page: 3, keep: 10, times: 1 }],
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
