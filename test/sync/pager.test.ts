import { describe, expect, it } from 'vitest';
import { pages } from '../../src/sync/pager.js';

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
      return { count: fetched.text.length };
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
    const got = await drain(pages({ ...l, pageSize: 10, startPage: 1, expectedRows: 25, window: 4 }));
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
    const got = await drain(pages({ ...l, pageSize: 10, startPage: 1, expectedRows: 15, window: 4 }));
    expect(got.map((p) => p.fetched.count)).toEqual([10, 10, 10, 10, 0]);
    expect(l.log.filter((e) => e.startsWith('fetch'))).toHaveLength(5);
  });

  it('uses the fetched value as the page when no openPage is given, resuming at startPage', async () => {
    const got = await drain(
      pages({ fetchPage: async (page: number) => ({ count: page < 4 ? 10 : 3 }), pageSize: 10, startPage: 2, expectedRows: 0, window: 2 }),
    );
    expect(got.map((p) => p.page)).toEqual([2, 3, 4]);
  });
});

describe('pages of a list never read (readAhead)', () => {
  it('keeps the window full past each full page, at most window - 1 requests past the end', async () => {
    const l = list(25, 10);
    const got = await drain(pages({ ...l, pageSize: 10, startPage: 1, expectedRows: 0, window: 4, readAhead: true }));
    expect(got.map((p) => p.fetched.count)).toEqual([10, 10, 5]);
    const fetches = l.log.filter((e) => e.startsWith('fetch'));
    // Page 1 alone (a one-page list costs one request), then the window: pages 2-5 before page 2 is opened.
    expect(l.log.indexOf('fetch 2')).toBeGreaterThan(l.log.indexOf('open 1'));
    expect(l.log.indexOf('fetch 5')).toBeLessThan(l.log.indexOf('open 2'));
    expect(fetches.length).toBeLessThanOrEqual(3 + 3);
  });

  it('costs one request for a list that fits one page', async () => {
    const l = list(7, 10);
    await drain(pages({ ...l, pageSize: 10, startPage: 1, expectedRows: 0, window: 4, readAhead: true }));
    expect(l.log.filter((e) => e.startsWith('fetch'))).toEqual(['fetch 1']);
  });
});

/** Waits until `cond` holds, turning the event loop (timers included) in between. */
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !cond(); i++) await new Promise((resolve) => setTimeout(resolve, 1));
  expect(cond()).toBe(true);
}

describe('pages held while the caller writes', () => {
  it('go on being requested, a window at a time, up to `held` pages past the one being written', async () => {
    const l = list(200, 10);
    let inFlight = 0;
    let most = 0;
    const fetchPage = async (page: number) => {
      most = Math.max(most, ++inFlight);
      const fetched = await l.fetchPage(page);
      inFlight--;
      return fetched;
    };
    const gen = pages({ ...l, fetchPage, pageSize: 10, startPage: 1, expectedRows: 200, window: 2, held: 6 });
    expect((await gen.next()).value?.page).toBe(1); // the caller now writes page 1, and takes its time
    await until(() => l.log.filter((e) => e.startsWith('fetch')).length === 7);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(l.log.filter((e) => e.startsWith('fetch'))).toEqual([
      'fetch 1',
      'fetch 2',
      'fetch 3',
      'fetch 4',
      'fetch 5',
      'fetch 6',
      'fetch 7',
    ]);
    expect(most).toBe(2);
    const rest = await drain(gen);
    expect(rest.map((p) => p.page)).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
  });

  it('of a list never read: past pages counted full as they came, never past a page counted short', async () => {
    const slow = (rows: number) => {
      const l = list(rows, 10);
      const fetchPage = async (page: number) => {
        await new Promise((resolve) => setTimeout(resolve, 12)); // a round trip worth hiding
        return l.fetchPage(page);
      };
      return { ...l, fetchPage, countOf: (fetched: { text: string }) => fetched.text.length };
    };
    // A long list: while page 1 is written, pages are read ahead beyond the window (counted full on arrival).
    const long = slow(200);
    const gen = pages({ ...long, pageSize: 10, startPage: 1, expectedRows: 0, window: 2, held: 6, readAhead: true });
    await gen.next();
    await until(() => long.log.filter((e) => e.startsWith('fetch')).length === 7);
    await gen.return(undefined);
    // A short one: the page counted short on arrival stops the requests; none lands past the window.
    const short = slow(35);
    const got = await drain(pages({ ...short, pageSize: 10, startPage: 1, expectedRows: 0, window: 2, held: 6, readAhead: true }));
    expect(got.map((p) => p.fetched.count)).toEqual([10, 10, 10, 5]);
    expect(short.log.filter((e) => e.startsWith('fetch')).length).toBeLessThanOrEqual(4 + 1);
  });

  it('of a list never read, without counts: read ahead one window past the last page opened', async () => {
    const l = list(200, 10);
    const gen = pages({ ...l, pageSize: 10, startPage: 1, expectedRows: 0, window: 2, held: 6, readAhead: true });
    await gen.next();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(l.log.filter((e) => e.startsWith('fetch'))).toEqual(['fetch 1', 'fetch 2', 'fetch 3']);
    await gen.return(undefined);
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
      return { count: page < 3 ? 10 : page === 3 ? 5 : 0 };
    };
    const gen = pages({ fetchPage, pageSize: 10, startPage: 1, expectedRows: 0, window: 3, readAhead: true });
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
