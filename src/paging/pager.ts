// The one page loop: pages of a list, in order, as its paginator says (src/paging/paginator.ts): the
// paginator decides whether a page is followed by another (never `total`: a page shorter than the page
// size, or empty, ends the list) and carries the guard applied to every page. Pages known to exist (from
// the mirror's last row count) are fetched several at a time; past that horizon only the next page is
// requested, so a sync makes no request it does not need, unless `readAhead` (a list the mirror never
// read): then the window stays full past each full page, and at most window - 1 requests land past the
// list's end (pagesPastTheEnd).
import type { Paginator } from './paginator.js';

/** What the loop needs of an opened page: how many records it held, and what the guard remembers it by. */
export interface OpenedPage {
  count: number;
  /** The page's signatures (its first key, its bytes' hash): one seen on an earlier page is a paging loop. */
  signatures: readonly (string | undefined)[];
}

export interface PagerOptions<T extends OpenedPage, F> {
  /** Each page's place in the list, where the list ends, and the guard. */
  paginator: Paginator;
  /**
   * Starts a page's request: pages are fetched ahead, several at once. `abandoned` aborts when the pages
   * end with this page's request still out (read past the list's end): no further attempt is then wanted.
   */
  fetchPage: (page: number, abandoned: AbortSignal) => Promise<F>;
  /**
   * Turns a fetched page into its records when its turn comes, in page order, so that pages fetched
   * ahead wait as bytes rather than as parsed objects (a 10,000-record page is ≈6 MB of text, ≈40 MB
   * parsed). Without it, the fetched value is the page.
   */
  openPage?: (fetched: F, page: number) => Promise<T>;
  startPage: number;
  /** Rows the list held last time (0 when unknown): pages up to rows/pageSize + 1 are expected. */
  expectedRows: number;
  /** Most pages in flight at once. */
  window: number;
  /** The list's length is unknown (never read): keep `window` pages in flight past the last full one. */
  readAhead?: boolean;
}

export interface Page<T> {
  page: number;
  fetched: T;
  last: boolean;
}

export async function* pages<F, T extends OpenedPage = Extract<F, OpenedPage>>(opts: PagerOptions<T, F>): AsyncGenerator<Page<T>> {
  const { paginator, window } = opts;
  const open = opts.openPage ?? (async (fetched: F) => fetched as unknown as T);
  const end = paginator.lastPage ?? Infinity;
  const horizon = paginator.pagesFor(opts.expectedRows);
  const inflight = new Map<number, Promise<F>>();
  const abandon = new AbortController();
  let next = opts.startPage;
  let knownFull = opts.startPage - 1;

  // Read ahead once a page came back full: a list that fits one page costs one request.
  const ahead = () => (opts.readAhead && knownFull >= opts.startPage ? window : 1);
  const fill = () => {
    while (inflight.size < window && next <= Math.min(end, Math.max(horizon, knownFull + ahead()))) {
      const request = opts.fetchPage(next, abandon.signal);
      request.catch(() => {}); // a page abandoned after the list ended must not be an unhandled rejection
      inflight.set(next, request);
      next++;
    }
  };

  try {
    for (let current = opts.startPage; ; current++) {
      fill();
      const request = inflight.get(current);
      if (!request) return;
      inflight.delete(current);
      const fetched = await open(await request, current);
      const last = !paginator.hasNextPage(current, fetched.count);
      if (!last) {
        knownFull = current;
        fill(); // start the next page before the caller writes this one
      }
      // A service that ignores `page` would serve page 1 forever (or cycle through pages), and one may never
      // end: stop instead (Singer's rule).
      paginator.guard.check(current, fetched.signatures);
      yield { page: current, fetched, last };
      if (last) return;
    }
  } finally {
    // Pages still out are not wanted: no retry of theirs is sent, and they settle before the pages end, so
    // every request of a stream is counted (and over) when its stream ends.
    abandon.abort();
    await Promise.allSettled(inflight.values());
  }
}

/**
 * Requests a read ahead may make past a list's end: the loop keeps `window` pages in flight past each full
 * page while the list's length is unknown, so at most window - 1 land past it. None with a fixed last page.
 */
export function pagesPastTheEnd(paginator: Paginator, window: number): number {
  return paginator.lastPage === undefined ? window - 1 : 0;
}
