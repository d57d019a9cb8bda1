// @end-to-end
// The run's budget of records parsed and not yet written: served in order, and honoured by every list at
// once without a list ever waiting on budget that only its own unwritten pages hold.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { v1Lists } from '../../src/catalog/v1.js';
import { ParseBudget } from '../../src/sync/parse-budget.js';
import { liveRecords, syncOnce, countingTransactions } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

describe('ParseBudget', () => {
  it('lends up to its capacity, then serves the waiters in order as records are given back', async () => {
    const budget = new ParseBudget(300);
    expect(budget.tryTake(200)).toBe(true);
    expect(budget.tryTake(200)).toBe(false);
    const served: string[] = [];
    const first = budget.take(200).then(() => served.push('first'));
    const second = budget.take(100).then(() => served.push('second'));
    expect(budget.tryTake(100)).toBe(false); // no one passes the waiters, even with room for it
    budget.give(200);
    await Promise.all([first, second]);
    expect(served).toEqual(['first', 'second']);
    expect(budget.tryTake(1)).toBe(false);
  });

  it('lends a page larger than the whole budget the whole budget, once everything else is given back', async () => {
    const budget = new ParseBudget(100);
    expect(budget.tryTake(40)).toBe(true);
    let got = false;
    const large = budget.take(10_000).then(() => {
      got = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(got).toBe(false);
    budget.give(40);
    await large;
    budget.give(10_000);
    expect(budget.tryTake(100)).toBe(true);
  });

  it("gives back what a stream's share still holds when the stream ends, never more than it took", async () => {
    const budget = new ParseBudget(200);
    const failed = budget.share();
    expect(failed.tryTake(100)).toBe(true); // a page parsed, then refused: never written, never given back
    const other = budget.share();
    let got = false;
    const waiting = other.take(200).then(() => (got = true));
    failed.close();
    await waiting;
    expect(got).toBe(true);
    failed.give(100); // a late give of the closed share frees nothing twice
    expect(budget.tryTake(1)).toBe(false);
  });

  it('ends a wait when the stream stops, and serves the waiter behind it', async () => {
    const budget = new ParseBudget(100);
    expect(budget.tryTake(60)).toBe(true);
    const stop = new AbortController();
    const stopped = budget.take(100, stop.signal);
    const behind = budget.take(40);
    stop.abort();
    await expect(stopped).rejects.toMatchObject({ code: 'DS_STOPPING' });
    await behind; // 60 + 40 fit once the 100 before it gave up
    await expect(budget.take(1, AbortSignal.abort())).rejects.toMatchObject({ code: 'DS_STOPPING' });
  });
});

for (const dialect of dialects) {
  describe(`a run's lists within a budget of one page (${dialect})`, () => {
    let sandbox: Sandbox;
    let t: TestStore;
    let roomy: TestStore;
    beforeAll(async () => {
      // Scale 0.5: sec-filings six pages (more than one group of five), every list several pages at once.
      sandbox = await startSandbox({ start: PINNED_START, scale: 0.5, seed: 9 });
      t = await openTestStore(dialect);
      roomy = await openTestStore(dialect);
    });
    afterAll(async () => {
      await t?.cleanup();
      await roomy?.cleanup();
      await sandbox?.close();
    });

    it('mirrors every list, each page written before the next is parsed, none waiting for ever', async () => {
      const { store, transactions } = countingTransactions(t.store);
      const tight = { parsedRecordsAtOnce: 100 }; // one 100-record page at a time, in the whole run
      const result = await syncOnce(store, sandbox, ['v1'], { settings: tight });
      expect(result.streams.map((s) => [s.stream, s.outcome]).filter(([, o]) => o !== 'success')).toEqual([]);
      // The same mirror as a run with the default budget.
      const roomyCounted = countingTransactions(roomy.store);
      expect((await syncOnce(roomyCounted.store, sandbox, ['v1'])).outcome).toBe('success');
      for (const stream of v1Lists) {
        const got = await liveRecords(t.store, stream.table, stream.key);
        expect(got.size, stream.name).toBeGreaterThan(0);
        expect(got, stream.name).toEqual(await liveRecords(roomy.store, stream.table, stream.key));
      }
      // No page groups: sec-filings alone (more than five 100-record pages) commits once a page, not once
      // every five pages as with room to spare.
      const secPages = Math.floor(sandbox.records('sec-filings').length / 100) + 1;
      expect(secPages).toBeGreaterThan(5);
      expect(transactions()).toBeGreaterThanOrEqual(roomyCounted.transactions() + secPages - Math.ceil(secPages / 5));
    });
  });
}
