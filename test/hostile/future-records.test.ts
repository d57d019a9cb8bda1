// A record from the far future does not freeze a stream: one SEC filing dated 9999-12-31 is stored as
// served, but the date window stays at the present, so later filings still arrive, and the run says so.
// A mirror that already holds such a record (an older release let it move the window) heals at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { v1Lists } from '../../src/catalog/v1.js';
import { liveRecords, syncOnce } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { startLyingProxy, type LyingProxy } from './lying-proxy.js';

const filings = v1Lists.find((s) => s.name === 'sec-filings')!;

for (const dialect of dialects) {
  describe(`a record dated 9999-12-31 on ${dialect}`, () => {
    let sandbox: Sandbox;
    let proxy: LyingProxy;
    let t: TestStore;
    const asked: string[] = [];

    beforeAll(async () => {
      // Scale 0.1: some 100 filings and a few more after the advance (0.3's 300 showed the same at three times the rows).
      sandbox = await startSandbox({ start: PINNED_START, scale: 0.1, seed: 9 });
      proxy = await startLyingProxy(sandbox, (url, body) => {
        if (url.pathname !== filings.path) return body;
        asked.push(url.searchParams.get('start_filing_date') ?? '(none)');
        if (url.searchParams.get('page') !== '1') return body;
        const first = body.data[0] as Record<string, unknown>;
        return { ...body, data: [...body.data, { ...first, accession_number: '9999-FROM-THE-FUTURE', filing_date: '9999-12-31' }] };
      });
      t = await openTestStore(dialect);
    });
    afterAll(async () => {
      await t?.cleanup();
      await proxy?.close();
      await sandbox?.close();
    });

    it('is stored, reported, and does not move the window: later filings arrive', async () => {
      const first = await syncOnce(t.store, proxy, ['sec-filings']);
      expect(first.streams[0]!.outcome).toBe('success');
      const poison = await t.store.db
        .selectFrom('sec_filings')
        .select('filing_date')
        .where('accession_number', '=', '9999-FROM-THE-FUTURE')
        .execute();
      expect(poison.map((r) => String(r.filing_date instanceof Date ? r.filing_date.toISOString() : r.filing_date).slice(0, 10))).toEqual([
        '9999-12-31',
      ]);
      expect(first.streams[0]!.notice).toMatch(
        /1 record\(s\) dated after today \(up to 9999-12-31\) are kept but do not move the date window/,
      );

      const change = await sandbox.advance({ seconds: 3 * 86_400, updateFraction: 0, addFraction: 0.05, removeFraction: 0 });
      expect(change.resources['sec-filings']?.added.length).toBeGreaterThan(0); // later filings, to arrive
      asked.length = 0;
      const second = await syncOnce(t.store, proxy, ['sec-filings']);
      expect(second.streams[0]!.outcome).toBe('success');
      // The window starts at the real filings' newest minus the lookback, in the sandbox's past: not in 9999.
      expect(asked.length).toBeGreaterThan(0);
      for (const start of asked) expect(start < '2100-01-01').toBe(true);
      const mirrored = await liveRecords(t.store, filings.table, filings.key);
      expect(mirrored.size).toBe(sandbox.records('sec-filings').length + 1); // every real filing, and the poison
    });
  });
}
