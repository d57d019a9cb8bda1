import { describe, expect, it } from 'vitest';
import { pageNumber } from '../../src/catalog/paginator.js';
import { PageNumberPaginator, paginatorFor } from '../../src/paging/paginator.js';
import { pages } from '../../src/paging/pager.js';

/** The /v1 paginator at `size` records a page, for a list the mirror knows nothing of. */
const numbered = (size: number, lastPage?: number) =>
  new PageNumberPaginator(pageNumber(size), { path: '/v1/list', limits: { expectedRows: 0 }, lastPage });

/** A list of `rows` records served in pages of `size`, recording the order of fetches and opens. */
function list(rows: number, size: number) {
  const log: string[] = [];
  const count = (page: number) => Math.max(0, Math.min(size, rows - (page - 1) * size));
  return {
    log,
    fetchPage: async (page: number) => {
      log.push(`fetch ${page}`);
      await new Promise((resolve) => setTimeout(resolve, (7 - page) % 3)); // out-of-order arrivals
      return { text: 'x'.repeat(count(page)) };
    },
    openPage: async (fetched: { text: string }, page: number) => {
      log.push(`open ${page}`);
      return { count: fetched.text.length, signatures: [] };
    },
  };
}

async function drain<T>(gen: AsyncGenerator<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of gen) out.push(item);
  return out;
}

describe('pages', () => {
  it('opens fetched pages one at a time in page order, and ends at the first short page', async () => {
    const l = list(25, 10);
    const got = await drain(pages({ ...l, paginator: numbered(10), startPage: 1, expectedRows: 25, window: 4 }));
    expect(got.map((p) => [p.page, p.fetched.count, p.last])).toEqual([
      [1, 10, false],
      [2, 10, false],
      [3, 5, true],
    ]);
    expect(l.log.filter((e) => e.startsWith('open'))).toEqual(['open 1', 'open 2', 'open 3']);
    // Pages were fetched ahead (all three requested before the first was opened).
    expect(l.log.indexOf('fetch 3')).toBeLessThan(l.log.indexOf('open 1'));
  });

  it('makes the minimum number of requests when the list grew past what it held last time', async () => {
    const l = list(40, 10); // an exact multiple: one closing empty page
    const got = await drain(pages({ ...l, paginator: numbered(10), startPage: 1, expectedRows: 15, window: 4 }));
    expect(got.map((p) => p.fetched.count)).toEqual([10, 10, 10, 10, 0]);
    expect(l.log.filter((e) => e.startsWith('fetch'))).toHaveLength(5);
  });

  it('uses the fetched value as the page when no openPage is given, resuming at startPage', async () => {
    const got = await drain(
      pages({
        fetchPage: async (page: number) => ({ count: page < 4 ? 10 : 3, signatures: [] }),
        paginator: numbered(10),
        startPage: 2,
        expectedRows: 0,
        window: 2,
      }),
    );
    expect(got.map((p) => p.page)).toEqual([2, 3, 4]);
  });
});

describe('pages of a list never read (readAhead)', () => {
  it('keeps the window full past each full page, at most window - 1 requests past the end', async () => {
    const l = list(25, 10);
    const got = await drain(pages({ ...l, paginator: numbered(10), startPage: 1, expectedRows: 0, window: 4, readAhead: true }));
    expect(got.map((p) => p.fetched.count)).toEqual([10, 10, 5]);
    const fetches = l.log.filter((e) => e.startsWith('fetch'));
    // Page 1 alone (a one-page list costs one request), then the window: pages 2-5 before page 2 is opened.
    expect(l.log.indexOf('fetch 2')).toBeGreaterThan(l.log.indexOf('open 1'));
    expect(l.log.indexOf('fetch 5')).toBeLessThan(l.log.indexOf('open 2'));
    expect(fetches.length).toBeLessThanOrEqual(3 + 3);
  });

  it('costs one request for a list that fits one page', async () => {
    const l = list(7, 10);
    await drain(pages({ ...l, paginator: numbered(10), startPage: 1, expectedRows: 0, window: 4, readAhead: true }));
    expect(l.log.filter((e) => e.startsWith('fetch'))).toEqual(['fetch 1']);
  });
});

describe('pages still out when the list ends', () => {
  it('are told they are abandoned, and settle before the pages end', async () => {
    const signals = new Map<number, AbortSignal>();
    let releasePastEnd = () => {};
    const pastEnd = new Promise<void>((resolve) => {
      releasePastEnd = resolve;
    });
    const settled: number[] = [];
    const fetchPage = async (page: number, abandoned: AbortSignal) => {
      signals.set(page, abandoned);
      if (page > 3) {
        await pastEnd; // a request read ahead past the end, still out when page 3 ends the list
        settled.push(page);
      }
      return { count: page < 3 ? 10 : page === 3 ? 5 : 0, signatures: [] };
    };
    const gen = pages({ fetchPage, paginator: numbered(10), startPage: 1, expectedRows: 0, window: 3, readAhead: true });
    const seen: number[] = [];
    for (let step = await gen.next(); !step.done; step = await gen.next()) {
      seen.push(step.value.page);
      if (step.value.last) break;
    }
    expect(seen).toEqual([1, 2, 3]);
    // Ending the pages waits for the requests still out (pages 4 and 5), which learn they are abandoned.
    let ended = false;
    const end = gen.next().then((step) => {
      ended = step.done === true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(signals.get(4)?.aborted).toBe(true);
    expect(ended).toBe(false);
    releasePastEnd();
    await end;
    expect(ended).toBe(true);
    expect(settled.sort()).toEqual([4, 5]);
  });
});

describe('a paginator', () => {
  it("builds each page's parameters and says whether another page follows", () => {
    const paginator = numbered(100);
    expect(paginator.params(3)).toEqual({ page: 3, limit: 100 });
    expect(paginator.hasNextPage(3, 100)).toBe(true);
    expect(paginator.hasNextPage(3, 99)).toBe(false);
    const top = new PageNumberPaginator(pageNumber(100), { path: '/v1/assets', limits: { expectedRows: 0 }, pageSize: 50, lastPage: 1 });
    expect(top.params(1)).toEqual({ page: 1, limit: 50 });
    expect(top.hasNextPage(1, 50)).toBe(false);
  });

  it('of a list served in one response sends no paging and ends at its first page', () => {
    const single = paginatorFor({ type: 'single' }, { path: '/token-unlocks/v1/assets', limits: { expectedRows: 0 } });
    expect(single.params(1)).toEqual({});
    expect(single.hasNextPage(1, 5000)).toBe(false);
  });

  it('carries the guard the loop applies: a page served again stops the pages', async () => {
    const fetchPage = async (page: number) => ({ count: 10, signatures: [`first:${page === 3 ? 1 : page}`] });
    const seen: number[] = [];
    const read = async () => {
      for await (const p of pages({ paginator: numbered(10), fetchPage, startPage: 1, expectedRows: 0, window: 1 })) seen.push(p.page);
    };
    await expect(read()).rejects.toMatchObject({ code: 'DS_PAGING_LOOP' });
    expect(seen).toEqual([1, 2]);
  });

  it('a fixed last page ends the list even when it is full', async () => {
    const fetchPage = async () => ({ count: 10, signatures: [] });
    const got = await drain(pages({ paginator: numbered(10, 2), fetchPage, startPage: 1, expectedRows: 0, window: 4 }));
    expect(got.map((p) => [p.page, p.last])).toEqual([
      [1, false],
      [2, true],
    ]);
  });
});
