// A paginator per paging style, as dlt's rest_api and Airbyte's declarative paginators: built from the
// catalog's description of how a list pages, it gives each page's query parameters, says whether a page
// is followed by another and how many pages a list of n rows takes (the loop's horizon, the budget's
// price), and carries the guard the page loop (src/paging/pager.ts) applies to every page.
import type { PageNumberSpec, PaginatorSpec, Query } from '../catalog/types.js';
import { type GuardLimits, type PageGuard, pageGuardFor } from './page-guard.js';

export interface Paginator {
  /** Records a full page holds (a list served in one response: unbounded). */
  readonly pageSize: number;
  /** The page that ends the list whatever it holds (a list in one response, the top of a ranking), if any. */
  readonly lastPage?: number;
  /** Stops a list that serves the same pages again or never ends. */
  readonly guard: PageGuard;
  /** The paging parameters of a page's request. */
  params(page: number): Query;
  /** Whether a page of `count` records is followed by another: it came back full, before any fixed last page. */
  hasNextPage(page: number, count: number): boolean;
  /** Requests a pass makes over a list of `rows` records: each full page and the short one that ends it, to any last page. */
  pagesFor(rows: number): number;
}

/**
 * Pages a list of `rows` records takes at `pageSize` a page: every full page, and the short (or empty)
 * one that ends it, since a list ends only at a page shorter than its size (never `total`).
 */
export function pagesFor(rows: number, pageSize: number): number {
  return Math.floor(rows / pageSize) + 1;
}

/** What a pass adds to the catalog's description: where its requests go, how long the list may be, where it ends. */
export interface PagingOptions {
  /** The list's path, named by the guard's errors. */
  path: string;
  limits: GuardLimits;
  /** Ask for fewer records a page than the catalog's size (the top of a ranking smaller than a page). */
  pageSize?: number;
  lastPage?: number;
}

/** `page`/`limit` (under the names the catalog gives): page n of a list ordered by the service. */
export class PageNumberPaginator implements Paginator {
  readonly pageSize: number;
  readonly lastPage?: number;
  readonly guard: PageGuard;

  constructor(
    private readonly spec: PageNumberSpec,
    options: PagingOptions,
  ) {
    this.pageSize = options.pageSize ?? spec.pageSize;
    this.lastPage = options.lastPage;
    this.guard = pageGuardFor(options.path, { ...options.limits, pageSize: this.pageSize });
  }

  params(page: number): Query {
    return { [this.spec.pageParam]: page, [this.spec.limitParam]: this.pageSize };
  }

  hasNextPage(page: number, count: number): boolean {
    return count >= this.pageSize && (this.lastPage === undefined || page < this.lastPage);
  }

  pagesFor(rows: number): number {
    return Math.min(this.lastPage ?? Number.POSITIVE_INFINITY, pagesFor(rows, this.pageSize));
  }
}

/** The whole list in one response: paging is accepted and ignored, so never sent. */
export class SinglePaginator implements Paginator {
  readonly pageSize = Number.POSITIVE_INFINITY;
  readonly lastPage = 1;
  readonly guard: PageGuard;

  constructor(options: PagingOptions) {
    this.guard = pageGuardFor(options.path, { ...options.limits, pageSize: this.pageSize });
  }

  params(): Query {
    return {};
  }

  hasNextPage(): boolean {
    return false;
  }

  pagesFor(): number {
    return 1;
  }
}

/** The paginator a catalog description names, by its `type`. */
const paginators: { readonly [T in PaginatorSpec['type']]: (spec: Extract<PaginatorSpec, { type: T }>, o: PagingOptions) => Paginator } = {
  'page-number': (spec, options) => new PageNumberPaginator(spec, options),
  single: (_spec, options) => new SinglePaginator(options),
};

export function paginatorFor(spec: PaginatorSpec, options: PagingOptions): Paginator {
  return (paginators[spec.type] as (s: PaginatorSpec, o: PagingOptions) => Paginator)(spec, options);
}
