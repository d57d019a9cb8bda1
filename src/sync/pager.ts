// Pages of a list, in order, never trusting `total`: a page shorter than the page size (or empty)
// ends the list. Pages known to exist (from the mirror's last row count) are fetched several at a
// time; past that horizon only the next page is requested, so a sync makes no request it does not need.
/** What the pager needs of a fetched page: how many records it held. */
export interface Counted {
  count: number;
}

export interface PagerOptions<T extends Counted> {
  fetchPage: (page: number) => Promise<T>;
  pageSize: number;
  startPage: number;
  /** Rows the list held last time (0 when unknown): pages up to rows/pageSize + 1 are expected. */
  expectedRows: number;
  /** Most pages in flight at once. */
  window: number;
}

export interface Page<T> {
  page: number;
  fetched: T;
  last: boolean;
}

export async function* pages<T extends Counted>(opts: PagerOptions<T>): AsyncGenerator<Page<T>> {
  const { pageSize, window } = opts;
  const horizon = Math.floor(opts.expectedRows / pageSize) + 1;
  const inflight = new Map<number, Promise<T>>();
  let next = opts.startPage;
  let knownFull = opts.startPage - 1;

  const fill = () => {
    while (inflight.size < window && next <= Math.max(horizon, knownFull + 1)) {
      const request = opts.fetchPage(next);
      request.catch(() => {}); // a page abandoned after the list ended must not be an unhandled rejection
      inflight.set(next, request);
      next++;
    }
  };

  for (let current = opts.startPage; ; current++) {
    fill();
    const request = inflight.get(current);
    if (!request) return;
    const fetched = await request;
    inflight.delete(current);
    const last = fetched.count < pageSize;
    if (!last) {
      knownFull = current;
      fill(); // start the next page before the caller writes this one
    }
    yield { page: current, fetched, last };
    if (last) return;
  }
}
