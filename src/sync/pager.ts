// Pages of a list, in order, never trusting `total`: a page shorter than the page size (or empty)
// ends the list. Pages known to exist (from the mirror's last row count) are fetched several at a
// time; past that horizon only the next page is requested, so a sync makes no request it does not need,
// unless `readAhead` (a list the mirror never read): then the window stays full past each full page,
// and at most window - 1 requests land past the list's end (see readAheadExtra in list-request.ts).
// Requests go on while the caller writes: pages come back and wait their turn, up to `held` of them.
/** What the pager needs of a fetched page: how many records it held. */
export interface Counted {
  count: number;
}

export interface PagerOptions<T extends Counted, F> {
  /**
   * Starts a page's request: pages are fetched ahead, several at once. `abandoned` aborts when the pages
   * end with this page's request still out (read past the list's end): no further attempt is then wanted.
   */
  fetchPage: (page: number, abandoned: AbortSignal) => Promise<F>;
  /**
   * Turns a fetched page into its records, by default when its turn comes, in page order, so that pages
   * fetched ahead wait as bytes rather than as parsed objects (a 10,000-record page is ≈6 MB of text,
   * ≈40 MB parsed). Without it, the fetched value is the page.
   */
  openPage?: (fetched: F, page: number) => Promise<T>;
  /**
   * A fetched page's record count, read from its bytes as it arrives (null when they do not tell): a list
   * never read then keeps its window full past its full pages while the caller is still writing earlier
   * ones. Asked only of a page whose round trip was slow (COUNT_AFTER_MS): counting costs about half a
   * parse, and pays only where there are round trips to hide.
   */
  countOf?: (fetched: F) => number | null;
  pageSize: number;
  startPage: number;
  /** Rows the list held last time (0 when unknown): pages up to rows/pageSize + 1 are expected. */
  expectedRows: number;
  /** Most requests in flight at once. */
  window: number;
  /** Most pages held at once, in flight or fetched and waiting for their turn (at least, and by default, `window`). */
  held?: number;
  /** A partial list (the top of a ranking) ends at this page, full or not. */
  lastPage?: number;
  /** The list's length is unknown (never read): keep `window` pages in flight past the last full one. */
  readAhead?: boolean;
}

/** A round trip slow enough that counting the page as it arrives is worth its cost. */
const COUNT_AFTER_MS = 10;

export interface Page<T> {
  page: number;
  fetched: T;
  last: boolean;
}

export async function* pages<F, T extends Counted = Extract<F, Counted>>(opts: PagerOptions<T, F>): AsyncGenerator<Page<T>> {
  const { pageSize, window } = opts;
  const open = opts.openPage ?? (async (fetched: F) => fetched as unknown as T);
  const heldAtMost = Math.max(window, opts.held ?? window);
  const lastPage = opts.lastPage ?? Infinity;
  const horizon = Math.floor(opts.expectedRows / pageSize) + 1;
  const held = new Map<number, Promise<F>>();
  const abandon = new AbortController();
  let next = opts.startPage;
  let inFlight = 0;
  let ended = false;
  const told = new PageCounts(opts.startPage, pageSize);

  // Read ahead once a page came back full: a list that fits one page costs one request.
  const ahead = () => (opts.readAhead && told.knownFull >= opts.startPage ? window : 1);
  const fill = () => {
    const upTo = Math.min(lastPage, told.shortAt, Math.max(horizon, told.knownFull + ahead()));
    while (!ended && inFlight < window && held.size < heldAtMost && next <= upTo) {
      const page = next++;
      const request = opts.fetchPage(page, abandon.signal);
      const asked = performance.now();
      inFlight++;
      const settled = (fetched?: F) => {
        inFlight--;
        const slow = performance.now() - asked >= COUNT_AFTER_MS;
        const count = fetched !== undefined && slow && opts.countOf ? opts.countOf(fetched) : null;
        if (count !== null) told.counted(page, count);
        fill();
      };
      request.then(settled, () => settled()); // a page abandoned after the list ended must not be an unhandled rejection
      held.set(page, request);
    }
  };

  try {
    for (let current = opts.startPage; ; current++) {
      fill();
      const request = held.get(current);
      if (!request) return;
      held.delete(current);
      const fetched = await open(await request, current);
      told.counted(current, fetched.count);
      const last = fetched.count < pageSize || current >= lastPage;
      if (!last) fill(); // start the next page before the caller writes this one
      yield { page: current, fetched, last };
      if (last) return;
    }
  } finally {
    // Pages still out are not wanted: no retry of theirs is sent, and they settle before the pages end, so
    // every request of a stream is counted (and over) when its stream ends.
    ended = true;
    abandon.abort();
    await Promise.allSettled(held.values());
  }
}

/** What the pages told, counted as they came or when opened: every page up to `knownFull` was full, none past `shortAt` exists. */
class PageCounts {
  knownFull: number;
  shortAt = Infinity;
  private readonly fullAhead = new Set<number>();

  constructor(
    startPage: number,
    private readonly pageSize: number,
  ) {
    this.knownFull = startPage - 1;
  }

  counted(page: number, count: number): void {
    if (page <= this.knownFull) return;
    if (count < this.pageSize) this.shortAt = Math.min(this.shortAt, page);
    else this.fullAhead.add(page);
    while (this.fullAhead.delete(this.knownFull + 1)) this.knownFull++;
  }
}
