// Bounds one list's paging in one run. A service that never serves a short page (always full pages),
// or that ignores `page` (A/B/A/B or the same page forever), would otherwise be followed until the disk
// fills. Every page seen in the run is remembered by its signature (the key of its first record, the
// hash of its bytes): any repeat is a loop, not only a repeat of the previous page.
import { DsMirrorError } from '../errors.js';

/** The configurable ceiling (`maxPagesPerList`): a list the mirror knows nothing of yet may be this long. */
export const DEFAULT_MAX_PAGES_PER_LIST = 10_000;
/** Pages allowed beyond twice what the mirror last saw: a list may grow between runs. */
const SLACK_PAGES = 10;

/** What bounds a list's pages in one pass. */
export interface GuardLimits {
  /** Rows the list held last time (0: unknown, the ceiling applies). */
  expectedRows: number;
  /** `maxPagesPerList` (default DEFAULT_MAX_PAGES_PER_LIST). */
  ceiling?: number;
  /** Rows held together (one parent's, replaced whole): the pages stop before memory runs out. */
  maxRows?: number;
}

/** Twice the pages of the rows the list held last time, plus slack, within the ceiling; the ceiling when unknown. */
function pageLimit(expectedRows: number, pageSize: number, ceiling = DEFAULT_MAX_PAGES_PER_LIST): number {
  if (expectedRows <= 0) return ceiling;
  return Math.min(ceiling, Math.ceil(expectedRows / pageSize) * 2 + SLACK_PAGES);
}

export class PageGuard {
  private readonly seen = new Map<string, number>();
  private pages = 0;

  constructor(
    private readonly path: string,
    private readonly maxPages: number,
    private readonly why: string,
  ) {}

  /** Throws DS_PAGING_LOOP when a signature was seen on an earlier page, DS_PAGE_LIMIT past the limit. */
  check(page: number, signatures: readonly (string | undefined)[]): void {
    if (++this.pages > this.maxPages) {
      throw new DsMirrorError(
        'DS_PAGE_LIMIT',
        `${this.path} served more than ${this.maxPages} full pages in one run (${this.why}): stopping; raise maxPagesPerList if the list really is that long`,
      );
    }
    for (const signature of signatures) {
      if (signature === undefined) continue;
      const earlier = this.seen.get(signature);
      if (earlier !== undefined) {
        throw new DsMirrorError(
          'DS_PAGING_LOOP',
          `${this.path} served the records of page ${earlier} again on page ${page}: paging is ignored, stopping`,
        );
      }
      this.seen.set(signature, page);
    }
  }
}

/** The guard of one pass: the run's ceiling, the limit from what the list held last time, the rows held together. */
export function pageGuardFor(path: string, limits: GuardLimits & { pageSize: number }): PageGuard {
  const { expectedRows, pageSize, maxRows } = limits;
  const ceiling = limits.ceiling ?? DEFAULT_MAX_PAGES_PER_LIST;
  if (maxRows !== undefined) {
    return new PageGuard(path, Math.min(ceiling, Math.ceil(maxRows / pageSize)), `at most ${maxRows} rows of one parent`);
  }
  const maxPages = pageLimit(expectedRows, pageSize, ceiling);
  return new PageGuard(path, maxPages, limitReason(expectedRows, maxPages, ceiling));
}

/** Why the limit is what it is, for the error message. */
function limitReason(expectedRows: number, maxPages: number, ceiling: number): string {
  return expectedRows > 0 && maxPages < ceiling
    ? `twice the ${expectedRows} rows it held last time, plus ${SLACK_PAGES} pages`
    : `the maxPagesPerList ceiling`;
}
