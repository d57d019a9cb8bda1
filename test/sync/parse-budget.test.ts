// @end-to-end
// The run's budget of records parsed and not yet written: served in order, and honoured by every list at
// once without a list ever waiting on budget that only its own unwritten pages hold.
import { describe, expect, it } from 'vitest';
import { v1Lists } from '../../src/catalog/v1.js';
import { catalogPageSize } from '../../src/requests/list-requests.js';
import type { Store, StoreTx } from '../../src/store/index.js';
import { ParseBudget } from '../../src/sync/parse-budget.js';
import { liveRecords, syncOnce } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { sandboxWithStore } from '../helpers/sandbox-store.js';
import { dialects } from '../helpers/stores.js';
import { expectedRecords } from '../helpers/v1-expected.js';

const V1 = v1Lists.map((s) => s.name);

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

/**
 * The store, recording the rows each transaction upserted into each table: what the run committed together,
 * whatever order its lists' pages came in.
 */
function recordingCommits(store: Store): { store: Store; commits: Map<string, number>[] } {
  const commits: Map<string, number>[] = [];
  const wrapped = Object.create(store) as Store;
  wrapped.transaction = (fn, opts) =>
    store.transaction((tx) => {
      const rows = new Map<string, number>();
      commits.push(rows);
      const recording = Object.create(tx) as StoreTx;
      recording.upsertChanged = (table, key, written, now, stream) => {
        rows.set(table, (rows.get(table) ?? 0) + written.length);
        return tx.upsertChanged(table, key, written, now, stream);
      };
      return fn(recording);
    }, opts);
  return { store: wrapped, commits };
}

for (const dialect of dialects) {
  describe(`a run's lists within a budget of one page (${dialect})`, () => {
    // Scale 0.3: sec-filings three full pages (one commit with room to spare), the asset classes and
    // market-stats several pages, read at once with the single-page lists.
    const fx = sandboxWithStore(dialect, { start: PINNED_START, scale: 0.3, seed: 9 });

    it('mirrors every list, each page written before the next is parsed, none waiting for ever', async () => {
      const { store, commits } = recordingCommits(fx.store);
      const tight = { parsedRecordsAtOnce: 100 }; // one 100-record page at a time, in the whole run
      const result = await syncOnce(store, fx.sandbox, V1, { settings: tight });
      expect(result.streams.map((s) => [s.stream, s.outcome]).filter(([, o]) => o !== 'success')).toEqual([]);
      for (const stream of v1Lists) {
        const got = await liveRecords(fx.store, stream.table, stream.key);
        expect(got.size, stream.name).toBeGreaterThan(0);
        expect(got, stream.name).toEqual(expectedRecords(fx.sandbox, stream));
      }
      // No page groups (test/sync/page-groups.test.ts shows five pages in a commit with room to spare): every
      // commit holds at most one page of one list, whichever order the lists' pages came in, so sec-filings'
      // full 100-record pages commit one by one.
      const pageSize = new Map(v1Lists.map((s) => [s.table, catalogPageSize(s)]));
      const grouped = commits.filter((rows) => {
        const lists = [...rows].filter(([table]) => pageSize.has(table));
        return lists.length > 1 || lists.some(([table, n]) => n > pageSize.get(table)!);
      });
      expect(grouped.map((rows) => Object.fromEntries(rows))).toEqual([]);
      const secPages = Math.ceil(fx.sandbox.records('sec-filings').length / 100);
      expect(secPages).toBeGreaterThan(2);
      expect(commits.filter((rows) => rows.has('sec_filings')).length).toBe(secPages);
    });
  });
}
